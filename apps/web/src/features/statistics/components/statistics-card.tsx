import { type StatisticsRow } from '@linewatch/contracts/statistics';
import { cardMeetsTarget, targetTone } from '@linewatch/contracts/rules/targets';
import { useId } from 'react';
import { formatDuration, formatNumber, formatPercent } from '../../../shared/format.ts';
import styles from './statistics-card.module.css';

interface Compared {
  name: string;
  testId: string;
  /** null: no data, not comparable (neutral colour). */
  ok: boolean | null;
  actual: string;
  target: string;
}

/** One machine's statistics over the searched range (docs/product.md section 3, statistics row). */
export const StatisticsCard = ({ row }: { row: StatisticsRow }) => {
  const compared: Compared[] = [
    {
      name: '产量',
      testId: 'produced',
      ok: cardMeetsTarget('produced', row.produceNumber, row.produceTargetNumber),
      actual: formatNumber(row.produceNumber),
      target: formatNumber(row.produceTargetNumber),
    },
    {
      name: 'NG数',
      testId: 'ng',
      ok: cardMeetsTarget('ng', row.ngNumber, row.ngTargetNumber),
      actual: formatNumber(row.ngNumber),
      target: formatNumber(row.ngTargetNumber),
    },
    {
      name: '良率',
      testId: 'yield',
      ok: cardMeetsTarget('yield', row.yield, row.yieldTarget),
      actual: formatPercent(row.yield),
      target: formatPercent(row.yieldTarget),
    },
    {
      name: '稼动率',
      testId: 'use-rate',
      ok: cardMeetsTarget('useRate', row.useRate, row.useRateTarget),
      actual: formatPercent(row.useRate),
      target: formatPercent(row.useRateTarget),
    },
    {
      name: '平均PPM',
      testId: 'avg-ppm',
      ok: cardMeetsTarget('ppm', row.avgPPM, row.ppmTarget),
      actual: formatNumber(row.avgPPM),
      target: formatNumber(row.ppmTarget),
    },
    {
      name: '最大PPM',
      testId: 'max-ppm',
      ok: cardMeetsTarget('maxPpm', row.maxPPM, row.ppmTarget),
      actual: formatNumber(row.maxPPM),
      target: formatNumber(row.ppmTarget),
    },
  ];
  const nameId = useId();
  const times: [string, string, number][] = [
    ['运行时间', 'running', row.runningTime],
    ['故障时间', 'error', row.errorTime],
    ['等待时间', 'waiting', row.waitingTime],
    ['前工序等待', 'pre-waiting', row.preProcessWaitingTime],
    ['后工序等待', 'after-waiting', row.afterProcessWaitingTime],
  ];
  return (
    <article
      className={styles.card}
      aria-labelledby={nameId}
      data-testid="statistics-card"
      data-sn={row.machineCode}
    >
      <header className={styles.header}>
        <h3 className={styles.name} id={nameId}>
          {row.nickSnCode.trim() || row.machineCode}
        </h3>
        <span className={styles.line}>
          {row.productLine}
          {row.productGroup ? ` / ${row.productGroup}` : ''}
        </span>
      </header>
      <div className={styles.device}>
        {row.deviceName} · SN：{row.machineCode}
      </div>
      <div className={styles.grid}>
        {compared.map((m) => (
          <div
            key={m.testId}
            className={styles.metric}
            role="group"
            aria-label={m.name}
            data-testid={`statistics-metric-${m.testId}`}
            data-ok={m.ok === null ? 'none' : m.ok}
          >
            <div className={styles.metricName}>{m.name}</div>
            <div className={styles.metricValue}>
              <span className={styles[targetTone(m.ok)]}>{m.actual}</span>
              <span className={styles.target}>/{m.target}</span>
            </div>
          </div>
        ))}
      </div>
      <dl className={styles.times}>
        {times.map(([name, testId, seconds]) => (
          <div key={testId} className={styles.time} data-testid={`statistics-time-${testId}`}>
            <dt>{name}</dt>
            <dd>{formatDuration(seconds)}</dd>
          </div>
        ))}
      </dl>
    </article>
  );
};
