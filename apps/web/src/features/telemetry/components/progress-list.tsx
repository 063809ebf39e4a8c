import type { RealtimePayload } from '@linewatch/contracts/socket';
import { ProgressBar } from 'antd-mobile';
import { formatNumber } from '../../../shared/format.ts';
import styles from './progress-list.module.css';

export const ProgressList = ({ items }: { items: RealtimePayload['progress'] }) => (
  <div className={styles.list}>
    {items.map((item) => (
      <div
        key={`${item.existingName}/${item.amountName}`}
        className={styles.item}
        data-testid="progress-item"
      >
        <div className={styles.labels}>
          <span>
            {item.existingName} <b>{formatNumber(item.existing)}</b>
          </span>
          <span>
            {item.amountName} <b>{formatNumber(item.amount)}</b>
          </span>
        </div>
        <ProgressBar
          percent={Math.min(100, Number(item.percent) || 0)}
          text={<span data-testid="progress-percent">{item.percent}%</span>}
          // 4em of room: "100.00%" must not spill past the card's edge
          style={{ '--track-width': '8px', '--text-width': '4em' }}
        />
      </div>
    ))}
  </div>
);
