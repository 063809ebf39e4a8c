import type { StatusSummary } from '@linewatch/contracts/devices';
import {
  DEVICE_STATUSES,
  deviceStatusLabels,
  type DeviceStatus,
} from '@linewatch/contracts/rules/machine-states';
import styles from './status-summary.module.css';

interface StatusSummaryBarProps {
  summary: StatusSummary | undefined;
  active: DeviceStatus | null;
  onSelect: (status: DeviceStatus | null) => void;
}

/** 运行 / 待机 / 故障 / 离线 counts; a tap filters the list to that status, a second tap clears. */
export const StatusSummaryBar = ({ summary, active, onSelect }: StatusSummaryBarProps) => (
  <div className={styles.bar} data-testid="status-summary" role="group" aria-label="设备状态">
    {DEVICE_STATUSES.map((status) => (
      <button
        key={status}
        type="button"
        className={`${styles.item} ${styles[status]} ${active === status ? styles.active : ''}`}
        data-testid={`status-summary-${status}`}
        aria-pressed={active === status}
        onClick={() => onSelect(active === status ? null : status)}
      >
        <span className={styles.count} data-testid="status-summary-count">
          {summary ? summary[status] : '—'}
        </span>
        <span className={styles.label}>{deviceStatusLabels[status]}</span>
      </button>
    ))}
  </div>
);
