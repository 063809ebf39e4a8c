import {
  productDataNames,
  progressPercent,
  type ProductDataKey,
  type RealtimePayload,
} from '@linewatch/contracts/socket';
import type { DeviceInfo } from '../devices/device-registry.ts';
import { derive } from '../shared/metrics.ts';
import { HOUR_MS, hourLabelOf, hourOf } from '../shared/time.ts';
import type { LiveMachine, LiveState } from './live-state.ts';
import { minuteOf, MINUTE_MS } from './reading-effects.ts';

const EQUIPMENT_STATUS = { running: 2, standBy: 1, error: 3, offLine: 0 } as const;

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
  const today = machine?.today;
  const figures = derive({
    produced: today?.produced ?? 0,
    ok: today?.ok ?? 0,
    ng: today?.ng ?? 0,
    firstPassOk: today?.firstPassOk ?? 0,
    runningMs: today?.runningMs ?? 0,
    idleMs: today?.idleMs ?? 0,
    faultMs: today?.faultMs ?? 0,
    maxMinuteProduced: machine?.maxMinuteProduced ?? 0,
  });
  // Current PPM: parts made in the last complete minute, while the machine is reporting.
  const currentPpm =
    status === 'offLine' ? 0 : (machine?.recentMinutes.get(minuteOf(now) - MINUTE_MS) ?? 0);
  const values: Record<ProductDataKey, number> = {
    ppm: currentPpm,
    peakPpm: figures.maxPPM,
    avgPpm: figures.ppm,
    yield: figures.yield,
    produced: today?.produced ?? 0,
    ok: today?.ok ?? 0,
    ng: today?.ng ?? 0,
    dt: figures.dtSeconds,
  };
  const produced = today?.produced ?? 0;
  const dateData = Array.from({ length: 24 }, (_, i) => {
    const hour = hourOf(now) - (23 - i) * HOUR_MS;
    return { hour: hourLabelOf(hour, timeZone), produced: machine?.hourly.get(hour) ?? 0 };
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
        amountName: '目标产量',
        amount: device.produceTargetNumber,
        percent: progressPercent(produced, device.produceTargetNumber),
      },
      {
        existingName: 'OK数',
        existing: today?.ok ?? 0,
        amountName: '当前产量',
        amount: produced,
        percent: progressPercent(today?.ok ?? 0, produced),
      },
    ],
    dateData,
  };
};
