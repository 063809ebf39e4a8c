import type { ProductDataKey, RealtimePayload } from '@linewatch/contracts/socket';
import { formatDuration, formatNumber, formatPercent } from '../../../shared/format.ts';
import styles from './product-cards.module.css';

const formatProductValue = (key: ProductDataKey, value: number): string => {
  if (key === 'yield') return formatPercent(value);
  if (key === 'dt') return formatDuration(value);
  return formatNumber(value);
};

export const ProductCards = ({ items }: { items: RealtimePayload['productData'] }) => (
  <div className={styles.grid}>
    {items.map((item) => (
      <div key={item.key} className={styles.card} data-testid="product-card" data-key={item.key}>
        <div className={styles.value} data-testid={`product-value-${item.key}`}>
          {formatProductValue(item.key, item.value)}
        </div>
        <div className={styles.name}>{item.name}</div>
      </div>
    ))}
  </div>
);
