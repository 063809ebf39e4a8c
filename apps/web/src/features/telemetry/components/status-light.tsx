import type { RealtimePayload } from '@linewatch/contracts/socket';
import styles from './status-light.module.css';

type EquipmentStatus = RealtimePayload['EquipmentStatus'];

const lights: Record<EquipmentStatus, { label: string; tone: string }> = {
  0: { label: '离线', tone: 'offline' },
  1: { label: '待机', tone: 'idle' },
  2: { label: '运行', tone: 'running' },
  3: { label: '故障', tone: 'fault' },
};

export const StatusLight = ({ status }: { status: EquipmentStatus }) => {
  const light = lights[status];
  return (
    <div className={styles.wrap} data-testid="status-light" data-status={status}>
      <span className={`${styles.light} ${styles[light.tone]}`} aria-hidden />
      <span className={styles.label}>{light.label}</span>
    </div>
  );
};
