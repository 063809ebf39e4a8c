import type { RealtimePayload } from '@linewatch/contracts/socket';
import { ProgressBar } from 'antd-mobile';
import { formatNumber, NO_DATA } from '../../../shared/format.ts';
import styles from './progress-list.module.css';

/**
 * `unobserved`: the machine never reported (shared/observed.ts): its counts read —, the bars'
 * own and an amount that is one of them (OK数 of 当前产量); a target stays a figure.
 */
export const ProgressList = ({
  items,
  unobserved = false,
}: {
  items: RealtimePayload['progress'];
  unobserved?: boolean;
}) => {
  const counts = new Set(items.map((item) => item.existingName));
  const count = (name: string, value: number) =>
    unobserved && counts.has(name) ? NO_DATA : formatNumber(value);
  return (
    <div className={styles.list} role="list" aria-label="生产进度">
      {items.map((item) => (
        <div
          key={`${item.existingName}/${item.amountName}`}
          className={styles.item}
          role="listitem"
          data-testid="progress-item"
        >
          <div className={styles.labels}>
            <span>
              {item.existingName} <b>{count(item.existingName, item.existing)}</b>
            </span>
            <span>
              {item.amountName} <b>{count(item.amountName, item.amount)}</b>
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
};
