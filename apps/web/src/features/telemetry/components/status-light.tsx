import {
  deviceStatusLabels,
  deviceStatusOfEquipment,
  type DeviceStatus,
  type EquipmentStatus,
} from '@linewatch/contracts/rules/machine-states';
import styles from './status-light.module.css';

/** docs/product.md section 2, real-time report: idle yellow, running green, fault red. */
const tones: Record<DeviceStatus, string> = {
  offLine: 'offline',
  standBy: 'idle',
  running: 'running',
  error: 'fault',
};

export const StatusLight = ({ status }: { status: EquipmentStatus }) => {
  const shown = deviceStatusOfEquipment(status);
  return (
    <div className={styles.wrap} data-testid="status-light" data-status={status}>
      <span className={`${styles.light} ${styles[tones[shown]]}`} aria-hidden />
      <span className={styles.label}>{deviceStatusLabels[shown]}</span>
    </div>
  );
};
