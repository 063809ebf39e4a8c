import type { ProductDataKey, RealtimePayload } from '@linewatch/contracts/socket';
import { formatDuration, formatNumber, formatPercent, NO_DATA } from '../../../shared/format.ts';
import styles from './product-cards.module.css';

/** null is no data (a ratio with no denominator): "—", never 0. */
const formatProductValue = (key: ProductDataKey, value: number | null): string => {
  if (value === null) return NO_DATA;
  if (key === 'yield') return formatPercent(value);
  if (key === 'dt') return formatDuration(value);
  return formatNumber(value);
};

/** `unobserved`: the machine never reported (shared/observed.ts), so every figure reads —. */
export const ProductCards = ({
  items,
  unobserved = false,
}: {
  items: RealtimePayload['productData'];
  unobserved?: boolean;
}) => (
  <div className={styles.grid}>
    {items.map((item) => (
      <div
        key={item.key}
        className={styles.card}
        role="group"
        aria-label={item.name}
        data-testid="product-card"
        data-key={item.key}
      >
        <div className={styles.value} data-testid={`product-value-${item.key}`}>
          {formatProductValue(item.key, unobserved ? null : item.value)}
        </div>
        <div className={styles.name}>{item.name}</div>
      </div>
    ))}
  </div>
);
