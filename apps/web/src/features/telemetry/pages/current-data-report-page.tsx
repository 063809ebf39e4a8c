import { DotLoading } from 'antd-mobile';
import { CloseCircleOutline, UnorderedListOutline } from 'antd-mobile-icons';
import { useSearchParams } from 'react-router';
import { messages } from '@linewatch/contracts/envelope';
import { MACHINE_STATE } from '@linewatch/contracts/rules/machine-states';
import { BlankState } from '../../../shared/components/blank-state.tsx';
import { formatClock, formatDateTime } from '../../../shared/format.ts';
import { webMessages } from '../../../shared/messages.ts';
import { observedNothing } from '../../../shared/observed.ts';
import { ActiveAlarms } from '../components/active-alarms.tsx';
import { ProductCards } from '../components/product-cards.tsx';
import { ProgressList } from '../components/progress-list.tsx';
import { RealtimeChart } from '../components/realtime-chart.tsx';
import { StatusLight } from '../components/status-light.tsx';
import { useRealtime } from '../use-realtime.ts';
import styles from './current-data-report-page.module.css';

/**
 * When the machine last reported: the time today, the date and time before (an offline machine's
 * last reading may be days old); 暂无数据上报 only for a machine never heard.
 */
const lastReading = (updatedAt: number | null, now = new Date()) => {
  if (updatedAt === null) return '暂无数据上报';
  const at = new Date(updatedAt);
  return at.toDateString() === now.toDateString()
    ? `最后上报 ${formatClock(updatedAt)}`
    : `最后上报 ${formatDateTime(at.toISOString())}`;
};

const CurrentDataReportPage = () => {
  const [params] = useSearchParams();
  const snCode = params.get('snCode')?.trim() || null;
  const { payload, disconnected, denied, unknown } = useRealtime(snCode);
  const unobserved =
    payload !== null &&
    observedNothing({
      neverReported: payload.updatedAt === null,
      counted: payload.productData.find((item) => item.key === 'produced')?.value ?? 0,
    });

  if (!snCode) {
    return (
      <BlankState
        icon={<UnorderedListOutline />}
        title={webMessages.noDevice}
        description="请从设备列表选择设备"
        testId="no-device"
      />
    );
  }
  if (unknown) {
    return (
      <BlankState
        icon={<UnorderedListOutline />}
        title={webMessages.reselectDevice}
        description={`SN：${snCode}`}
        testId="realtime-unknown"
      />
    );
  }
  if (denied) {
    return (
      <BlankState
        icon={<CloseCircleOutline />}
        title={messages.forbidden}
        testId="realtime-denied"
      />
    );
  }

  return (
    <div className={styles.page}>
      {disconnected ? (
        <div className={styles.disconnected} data-testid="connection-error" role="status">
          {webMessages.connectionError}，正在重新连接…
        </div>
      ) : null}
      {payload ? (
        <>
          <section className={`${styles.card} ${styles.head}`}>
            <div className={styles.identity}>
              <div className={styles.deviceName} data-testid="realtime-device-name">
                {payload.deviceName || payload.SN}
              </div>
              <div className={styles.sn}>SN：{payload.SN}</div>
              <div className={styles.lastReading} data-testid="realtime-last-reading">
                {lastReading(payload.updatedAt)}
              </div>
            </div>
            <StatusLight status={payload.EquipmentStatus} />
          </section>
          {payload.EquipmentStatus === MACHINE_STATE.fault ? (
            <ActiveAlarms alarms={payload.alarms} />
          ) : null}
          <section className={styles.card}>
            <h2 className={styles.heading}>生产数据</h2>
            <ProductCards items={payload.productData} unobserved={unobserved} />
          </section>
          {payload.progress.length > 0 ? (
            <section className={styles.card}>
              <h2 className={styles.heading}>生产进度</h2>
              <ProgressList items={payload.progress} unobserved={unobserved} />
            </section>
          ) : null}
          <section className={styles.card}>
            <h2 className={styles.heading}>24小时产量</h2>
            <RealtimeChart points={payload.dateData} />
          </section>
        </>
      ) : (
        <div className={styles.waiting} data-testid="realtime-loading">
          {webMessages.loading}
          <DotLoading />
        </div>
      )}
    </div>
  );
};

export default CurrentDataReportPage;
