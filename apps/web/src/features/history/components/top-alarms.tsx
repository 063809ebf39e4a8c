import type { TopAlarm } from '@linewatch/contracts/history';
import { formatNumber, formatPercent } from '../../../shared/format.ts';
import styles from './top-alarms.module.css';

/** The alarm TOP5 (docs/product.md section 2): code, description, times, minutes, the manual's words. */
export const TopAlarms = ({ items }: { items: readonly TopAlarm[] }) => (
  <ol className={styles.list} aria-label="报警TOP5" data-testid="top-alarms">
    {items.map((item, index) => (
      <li key={item.code} className={styles.item} data-testid="top-alarm">
        <div className={styles.head}>
          <span className={styles.rank}>{index + 1}</span>
          <span className={styles.code}>{item.code}</span>
          <span className={styles.description}>{item.description || '/'}</span>
        </div>
        <div className={styles.figures}>
          <span>次数 {item.times}</span>
          <span>时长 {formatNumber(item.duration)} 分钟</span>
          <span>占比 {formatPercent(item.percentage)}</span>
        </div>
        <div className={styles.manual}>处理说明：{item.artificialDes || '/'}</div>
      </li>
    ))}
  </ol>
);
