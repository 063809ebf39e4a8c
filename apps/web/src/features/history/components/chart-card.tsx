import { Button } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { Chart, type ChartOption } from '../../../shared/charts/chart.tsx';
import styles from './chart-card.module.css';

/**
 * A chart with a fullscreen toggle (docs/product.md section 2): fullscreen lays the phone's height along the
 * chart's x axis by rotating it a quarter turn, so a day of hours or a month of days reads wide.
 */
export const ChartCard = ({
  title,
  option,
  testId,
}: {
  title: string;
  option: ChartOption;
  testId: string;
}) => {
  const [full, setFull] = useState(false);
  const [viewport, setViewport] = useState(() => ({
    width: window.innerWidth,
    height: window.innerHeight,
  }));
  useEffect(() => {
    if (!full) return;
    const onResize = () => setViewport({ width: window.innerWidth, height: window.innerHeight });
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [full]);

  const toggle = (
    <Button
      size="mini"
      fill="outline"
      onClick={() => setFull(!full)}
      data-testid={`${testId}-fullscreen`}
    >
      {full ? '退出全屏' : '全屏'}
    </Button>
  );
  if (full) {
    return (
      <div
        className={styles.fullscreen}
        data-testid={`${testId}-rotated`}
        style={{ width: viewport.height, height: viewport.width }}
      >
        <div className={styles.head}>
          <span className={styles.title}>{title}</span>
          {toggle}
        </div>
        <Chart option={option} height={viewport.width - 48} testId={testId} />
      </div>
    );
  }
  return (
    <section className={styles.card}>
      <div className={styles.head}>
        <span className={styles.title}>{title}</span>
        {toggle}
      </div>
      <Chart option={option} height={240} testId={testId} />
    </section>
  );
};
