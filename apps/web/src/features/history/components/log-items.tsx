import type { OperationLog, StopAlarm } from '@linewatch/contracts/history';
import type { ReactNode } from 'react';
import styles from './log-items.module.css';

/**
 * A stop alarm: content, start and end; an alarm still active is flagged as an error. `action`:
 * what can be done with it (start a FACA question).
 */
export const StopAlarmItem = ({
  alarm,
  current,
  action,
}: {
  alarm: StopAlarm;
  current?: boolean;
  action?: ReactNode;
}) => (
  <li
    className={`${styles.item} ${alarm.state === 1 ? styles.error : ''}`}
    data-testid={current ? 'current-warning' : 'stop-alarm'}
    data-state={alarm.state}
  >
    <div className={styles.content}>
      {alarm.state === 1 ? <span className={styles.flag}>当前报警</span> : null}
      {alarm.contentStr}
    </div>
    <div className={styles.meta}>开始：{alarm.beginTime}</div>
    <div className={styles.meta}>结束：{alarm.endTime ?? '未结束'}</div>
    {action ? <div className={styles.action}>{action}</div> : null}
  </li>
);

/** An operation-log line: comment (or /), the set value, when and who. */
export const OperationItem = ({ log }: { log: OperationLog }) => (
  <li className={styles.item} data-testid="operation-log">
    <div className={styles.content}>{log.logComment || '/'}</div>
    <div className={styles.meta}>设定值：{log.information || '/'}</div>
    <div className={styles.meta}>
      {log.recordTime} · {log.userName}
    </div>
  </li>
);
