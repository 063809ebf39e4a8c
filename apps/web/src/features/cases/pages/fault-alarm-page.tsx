import { Image, Steps, Swiper } from 'antd-mobile';
import { ExclamationCircleOutline } from 'antd-mobile-icons';
import { useSearchParams } from 'react-router';
import { BlankState } from '../../../shared/components/blank-state.tsx';
import { webMessages } from '../../../shared/messages.ts';
import { useFailureCase } from '../api.ts';
import styles from './fault-alarm-page.module.css';

/** docs/product.md section 9: the fault-alarm carousel is 200 px high. */
const CAROUSEL_HEIGHT = 200;

/** /faultAlarm?casesId=…: a troubleshooting case, public (an alarm message links here). */
const FaultAlarmPage = () => {
  const [params] = useSearchParams();
  const casesId = params.get('casesId') ?? '';
  const found = useFailureCase(casesId);
  const c = found.data;
  if (!casesId)
    return <BlankState icon={<ExclamationCircleOutline />} title={webMessages.notFound} />;
  if (!c) return <div className={styles.loading}>{found.isError ? '' : webMessages.loading}</div>;
  return (
    <div className={styles.page} data-testid="fault-alarm">
      <section className={styles.card}>
        <div className={styles.row}>
          <span>机台SN码</span>
          <b data-testid="fault-sn">{c.snCode}</b>
        </div>
        <div className={styles.row}>
          <span>设备名称</span>
          <b>{c.deviceName}</b>
        </div>
        <div className={styles.row}>
          <span>报警内容</span>
          <b className={styles.alarm} data-testid="fault-content">
            {c.warningCode} {c.description}
          </b>
        </div>
      </section>
      <h3 className={styles.heading}>故障排查</h3>
      {c.shootings.map((s, i) => (
        <section key={s.label} className={styles.card} data-testid="fault-item">
          <div className={styles.itemTitle}>
            {i + 1}. {s.label}
          </div>
          {s.picUrl.length ? (
            <Swiper style={{ height: CAROUSEL_HEIGHT }} data-testid="fault-carousel">
              {s.picUrl.map((url) => (
                <Swiper.Item key={url}>
                  <Image src={url} height={CAROUSEL_HEIGHT} fit="contain" />
                </Swiper.Item>
              ))}
            </Swiper>
          ) : null}
          <Steps direction="vertical">
            {s.steps.map((step) => (
              <Steps.Step
                key={step.label}
                status="process"
                title={step.label}
                description={
                  step.picUrl ? (
                    <Image src={step.picUrl} width="100%" height={120} fit="contain" />
                  ) : null
                }
              />
            ))}
          </Steps>
          {s.videoUrl ? (
            <>
              <div className={styles.videoTitle}>指导视频</div>
              <video
                className={styles.video}
                src={s.videoUrl}
                controls
                playsInline
                preload="metadata"
                aria-label="指导视频"
                data-testid="fault-video"
              />
            </>
          ) : null}
        </section>
      ))}
    </div>
  );
};

export default FaultAlarmPage;
