import { deviceStatusLabels } from '@linewatch/contracts/rules/machine-states';
import type { MapStatus } from '@linewatch/contracts/statistics';
import { DownOutline, UpOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import styles from './map-summary.module.css';

const ITEMS: { key: keyof MapStatus; label: string; tone: string }[] = [
  { key: 'totalNum', label: '设备总数', tone: 'total' },
  { key: 'offLineNum', label: deviceStatusLabels.offLine, tone: 'offLine' },
  { key: 'runningNum', label: deviceStatusLabels.running, tone: 'running' },
  { key: 'standbyNum', label: deviceStatusLabels.standBy, tone: 'standBy' },
  { key: 'errorNum', label: deviceStatusLabels.error, tone: 'error' },
];

/** The collapsible device summary of the area shown (docs/product.md section 2, device map). */
export const MapSummary = ({ status, place }: { status: MapStatus | undefined; place: string }) => {
  const [open, setOpen] = useState(true);
  return (
    <section className={styles.summary} data-testid="map-summary" data-open={open}>
      <button
        type="button"
        className={styles.head}
        aria-expanded={open}
        data-testid="map-summary-toggle"
        onClick={() => setOpen((o) => !o)}
      >
        <span className={styles.place}>{place}设备概况</span>
        <span className={styles.fold}>
          {open ? '收起' : `共 ${status?.totalNum ?? '—'} 台`}
          {open ? <UpOutline /> : <DownOutline />}
        </span>
      </button>
      {open ? (
        <div className={styles.items}>
          {ITEMS.map((item) => (
            <div
              key={item.key}
              className={`${styles.item} ${styles[item.tone]}`}
              role="group"
              aria-label={item.label}
              data-testid={`map-summary-${item.key}`}
            >
              <span className={styles.count}>{status ? status[item.key] : '—'}</span>
              <span className={styles.label}>{item.label}</span>
            </div>
          ))}
        </div>
      ) : null}
    </section>
  );
};
