import type {
  DetailRow,
  DtPoint,
  DtRow,
  OperationLog,
  StopAlarm,
  ThreeParamPoint,
  TopAlarm,
} from '@linewatch/contracts/history';
import { deriveFigures, round2 } from '@linewatch/contracts/rules/figures';
import { emptyFigures, type Figures } from '../foundation/shared/metrics.ts';
import type { AlarmTotal, DeviceTargets } from './repository.ts';

/** One period of a history view: its label and figures (undefined: nothing was observed). */
export interface Period {
  label: string;
  figures: Figures | undefined;
  /** It contains the present moment: still in progress. */
  partial: boolean;
}

const minutes = (ms: number) => round2(ms / 60_000);

/**
 * The detail row of a period (docs/design.md section 5): ratios come from `deriveFigures`, so a
 * period with no parts or no observed time says null (no data), never 0. Ratio targets compare
 * as they are, in progress or not.
 */
export const detailRow = (period: Period, targets: DeviceTargets): DetailRow => {
  const f = period.figures ?? emptyFigures();
  const d = deriveFigures(f);
  return {
    dataDate: period.label,
    hasData: period.figures !== undefined,
    ppm: d.ppm,
    maxPPM: d.maxPPM,
    // One average PPM (contracts rules/figures.ts): the same figure as `ppm`, never above maxPPM.
    averagePPM: d.ppm,
    excellentRate: d.superiorityRate,
    yieId: d.yield,
    useRate: d.useRate,
    okNum: f.ok,
    produceNumber: f.produced,
    ngNumber: f.ng,
    ppmTarget: targets.ppmTarget,
    excellentRateTarget: targets.superiorityRateTarget,
    yieIdTarget: targets.yieldTarget,
    useRateTarget: targets.useRateTarget,
    partial: period.partial,
  };
};

export const threeParamPoint = (row: DetailRow): ThreeParamPoint => ({
  date: row.dataDate,
  activation: row.useRate,
  yield: row.yieId,
  ppm: row.ppm,
});

export const dtRow = (period: Period): DtRow => ({
  dataDate: period.label,
  hasData: period.figures !== undefined,
  dtTime: minutes(period.figures?.faultMs ?? 0),
});

export const dtPoint = (row: DtRow): DtPoint => ({ date: row.dataDate, value: row.dtTime });

const TOP = 5;

/**
 * The alarm TOP5: the codes that began most often, longer total first on a tie; each with its
 * share of all alarm minutes in the range.
 */
export const topAlarms = (totals: AlarmTotal[]): TopAlarm[] => {
  const allMs = totals.reduce((sum, t) => sum + t.ms, 0);
  return [...totals]
    .sort((a, b) => b.times - a.times || b.ms - a.ms || a.code.localeCompare(b.code))
    .slice(0, TOP)
    .map((t) => ({
      code: t.code,
      description: t.description,
      times: t.times,
      duration: minutes(t.ms),
      percentage: allMs > 0 ? round2((t.ms / allMs) * 100) : 0,
      artificialDes: t.artificialDes,
    }));
};

export const stopAlarm = (row: {
  content: string;
  begin_time: string;
  end_time: string | null;
}): StopAlarm => ({
  contentStr: row.content,
  beginTime: row.begin_time,
  endTime: row.end_time,
  state: row.end_time === null ? 1 : 0,
});

export const operationLog = (row: {
  comment: string;
  set_value: string;
  record_time: string;
  user_name: string;
}): OperationLog => ({
  logComment: row.comment,
  information: row.set_value,
  recordTime: row.record_time,
  userName: row.user_name,
});
