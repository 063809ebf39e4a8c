import type { RealtimePayload } from '@linewatch/contracts/socket';
import { ExclamationCircleFill } from 'antd-mobile-icons';
import styles from './active-alarms.module.css';

/** The alarms of a machine in fault: code and meaning (a code with no definition alone). */
export const ActiveAlarms = ({ alarms }: { alarms: RealtimePayload['alarms'] }) => (
  <section className={styles.panel} data-testid="realtime-alarms" role="alert">
    <h2 className={styles.heading}>
      <ExclamationCircleFill /> 故障报警
    </h2>
    {alarms.length === 0 ? (
      <div className={styles.none}>无报警代码</div>
    ) : (
      <ul className={styles.list}>
        {alarms.map((alarm) => (
          <li key={alarm.code} className={styles.alarm} data-testid="realtime-alarm">
            <span className={styles.code}>{alarm.code}</span>
            {alarm.description ? <span className={styles.text}>{alarm.description}</span> : null}
          </li>
        ))}
      </ul>
    )}
  </section>
);
