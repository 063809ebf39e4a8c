import { targetLabels, type MachineCard as Machine } from '@linewatch/contracts/devices';
import { IOT_STATE, iotLabels } from '@linewatch/contracts/rules/gateway-states';
import { deviceStatusLabels, type DeviceStatus } from '@linewatch/contracts/rules/machine-states';
import { cardMeetsTarget, targetTone } from '@linewatch/contracts/rules/targets';
import { Checkbox, Tag } from 'antd-mobile';
import { GlobalOutline } from 'antd-mobile-icons';
import { memo, useId, type ReactNode } from 'react';
import { formatNumber, formatPercent, NO_DATA } from '../../../shared/format.ts';
import { observedNothing } from '../../../shared/observed.ts';
import styles from './machine-card.module.css';

const statusColors: Record<DeviceStatus, string> = {
  running: 'success',
  standBy: 'warning',
  error: 'danger',
  offLine: '#999999',
};

export const displayName = (machine: Pick<Machine, 'snCode' | 'nickSnCode'>): string =>
  machine.nickSnCode.trim() || machine.snCode;

interface MetricProps {
  name: string;
  testId: string;
  /** null: no data, not comparable with the target (neutral colour). */
  ok: boolean | null;
  actual: string;
  target: string;
  /** Says what the target is when it is not the whole day's (a day in progress). */
  targetNote?: string | undefined;
}

const Metric = ({ name, testId, ok, actual, target, targetNote }: MetricProps) => (
  <div
    className={styles.metric}
    role="group"
    aria-label={name}
    data-testid={`card-metric-${testId}`}
    data-ok={ok === null ? 'none' : ok}
  >
    <div className={styles.metricName}>
      {name}
      {targetNote ? (
        <span className={styles.targetNote} data-testid={`card-target-note-${testId}`}>
          {' '}
          {targetNote}
        </span>
      ) : null}
    </div>
    <div className={styles.metricValue}>
      <span className={styles[targetTone(ok)]}>{actual}</span>
      <span className={styles.target}>/{target}</span>
    </div>
  </div>
);

interface MachineCardProps {
  machine: Machine;
  selecting: boolean;
  selected: boolean;
  onPress: (machine: Machine) => void;
}

/** Memoised: a reply or a selection redraws only the cards whose machine or state changed. */
export const MachineCard = memo(function MachineCard({
  machine,
  selecting,
  selected,
  onPress,
}: MachineCardProps) {
  const nameId = useId();
  const unobserved = observedNothing({
    noGateway: machine.iot === IOT_STATE.unbound,
    counted: machine.produceNumber,
  });
  const metrics: MetricProps[] = [
    {
      name: '产量',
      testId: 'produced',
      ok: unobserved
        ? null
        : cardMeetsTarget('produced', machine.produceNumber, machine.produceTargetDue),
      actual: unobserved ? NO_DATA : formatNumber(machine.produceNumber),
      // Today compares with the target due so far, not the whole day's (docs/design.md section 5).
      target: formatNumber(machine.produceTargetDue),
      targetNote: machine.targetPartial ? targetLabels.soFar : undefined,
    },
    {
      name: 'PPM',
      testId: 'ppm',
      ok: cardMeetsTarget('ppm', machine.ppm, machine.ppmTarget),
      actual: formatNumber(machine.ppm),
      target: formatNumber(machine.ppmTarget),
    },
    {
      name: '优率',
      testId: 'superiority',
      ok: cardMeetsTarget(
        'superiorityRate',
        machine.superiorityRate,
        machine.superiorityRateTarget,
      ),
      actual: formatPercent(machine.superiorityRate),
      target: formatPercent(machine.superiorityRateTarget),
    },
    {
      name: '良率',
      testId: 'yield',
      ok: cardMeetsTarget('yield', machine.yield, machine.yieldTarget),
      actual: formatPercent(machine.yield),
      target: formatPercent(machine.yieldTarget),
    },
    {
      name: '稼动率',
      testId: 'use-rate',
      ok: cardMeetsTarget('useRate', machine.useRate, machine.useRateTarget),
      actual: formatPercent(machine.useRate),
      target: formatPercent(machine.useRateTarget),
    },
  ];
  let checkbox: ReactNode = null;
  if (selecting) {
    checkbox = (
      <Checkbox
        className={styles.checkbox}
        data-testid="card-checkbox"
        checked={selected}
        onChange={() => onPress(machine)}
        onClick={(event) => event.stopPropagation()}
      />
    );
  }

  return (
    <article
      className={`${styles.card} ${selected ? styles.selected : ''}`}
      aria-labelledby={nameId}
      data-testid="device-card"
      data-sn={machine.snCode}
      data-status={machine.deviceStatus}
      onClick={() => onPress(machine)}
    >
      <header className={styles.header}>
        {checkbox}
        <h3 className={styles.name} id={nameId} data-testid="card-name">
          {displayName(machine)}
        </h3>
        {machine.isCollect ? (
          <Tag className={styles.tag} color="primary" fill="outline" data-testid="card-collect">
            已订阅
          </Tag>
        ) : null}
        <Tag
          className={styles.tag}
          color={statusColors[machine.deviceStatus]}
          data-testid="card-status"
        >
          {deviceStatusLabels[machine.deviceStatus]}
        </Tag>
      </header>
      <div className={styles.sub}>
        <span className={styles.device}>{machine.deviceName}</span>
        <span
          className={`${styles.iot} ${styles[`iot${machine.iot}`]}`}
          data-testid="card-iot"
          data-iot={machine.iot}
          title="网关状态"
        >
          <GlobalOutline aria-hidden />
          {iotLabels[machine.iot]}
        </span>
      </div>
      <div className={styles.metrics}>
        {metrics.map((metric) => (
          <Metric key={metric.testId} {...metric} />
        ))}
      </div>
    </article>
  );
});
