import { targetLabels } from '@linewatch/contracts/devices';
import {
  productDataNames,
  progressPercent,
  type ProductDataKey,
  type RealtimePayload,
} from '@linewatch/contracts/socket';
import { deriveFigures } from '@linewatch/contracts/rules/figures';
import { EQUIPMENT_STATUS } from '@linewatch/contracts/rules/machine-states';
import type { DeviceInfo } from '../core/machine.ts';
import { targetSoFar } from '../foundation/shared/metrics.ts';
import { dayElapsedFraction, dayOf, HOUR_MS, last24Hours } from '../foundation/shared/time.ts';
import type { LiveMachine, LiveState } from '../core/live-state.ts';
import { minuteOf, MINUTE_MS } from '../core/reading-effects.ts';

/** The real-time payload of one machine: one shape for the socket, built in one place. */
export const presentRealtime = (
  device: DeviceInfo,
  live: LiveState,
  timeZone: string,
  now = Date.now(),
  alarmDescriptions: ReadonlyMap<string, string> = new Map(),
): RealtimePayload => {
  const machine: LiveMachine | undefined = live.get(device.sn);
  const status = live.statusOf(device.sn, now);
  // Today's, not the last day the machine reported: after midnight a machine that has not
  // reported since shows nothing yet, not yesterday's parts.
  const today = live.todayOf(device.sn, now);
  const figures = deriveFigures(today);
  // 实时PPM (real-time PPM) is the count of the last complete minute: the parts of observed
  // minutes (no parts counted across a silence) the machine made in the minute before the
  // current one. The minute in progress is not shown: it would read low. No data (null) while
  // the machine is offline, or when its readings began during that minute (a start, or the end
  // of a silence): a partly observed minute would read low too.
  const lastMinute = minuteOf(now) - MINUTE_MS;
  const observedWhole = machine?.observedSince !== undefined && machine.observedSince <= lastMinute;
  const currentPpm =
    status !== 'offLine' && observedWhole ? (machine.recentMinutes.get(lastMinute) ?? 0) : null;
  const values: Record<ProductDataKey, number | null> = {
    ppm: currentPpm,
    peakPpm: figures.maxPPM,
    avgPpm: figures.ppm,
    yield: figures.yield,
    produced: today.produced,
    ok: today.ok,
    ng: today.ng,
    dt: figures.dtSeconds,
  };
  const produced = today.produced;
  // Today's count target is due in proportion to the elapsed part of the factory day.
  const target = targetSoFar(
    device.produceTargetNumber,
    dayElapsedFraction(dayOf(now, timeZone), now, timeZone),
  );
  const dateData = last24Hours(now, timeZone).map(({ start, label }, i) => {
    const produced = machine?.hourly.get(start) ?? 0;
    // The hour in progress: say how much of it has passed, so it is not read as a collapse.
    return i === 23
      ? { hour: label, produced, partial: Math.round(((now - start) / HOUR_MS) * 100) / 100 }
      : { hour: label, produced };
  });
  return {
    MsgType: 'machineList',
    SN: device.sn,
    deviceName: device.nickSnCode || device.deviceName,
    EquipmentStatus: EQUIPMENT_STATUS[status],
    // The time of the last reading (the screen shows it, so a stale screen is visibly stale).
    updatedAt: machine?.snapshot?.ts ?? null,
    // Active alarms while the machine reports (an offline machine's last alarms are history).
    alarms:
      status === 'offLine'
        ? []
        : (machine?.snapshot?.activeAlarms ?? []).map((code) => ({
            code,
            description: alarmDescriptions.get(code) ?? null,
          })),
    productData: (Object.keys(values) as ProductDataKey[]).map((key) => ({
      key,
      name: productDataNames[key],
      value: values[key],
    })),
    progress: [
      {
        existingName: '当前产量',
        existing: produced,
        amountName: target.partial ? targetLabels.soFar : '目标产量',
        amount: target.amount,
        percent: progressPercent(produced, target.amount),
      },
      {
        existingName: 'OK数',
        existing: today.ok,
        amountName: '当前产量',
        amount: produced,
        percent: progressPercent(today.ok, produced),
      },
    ],
    dateData,
  };
};
