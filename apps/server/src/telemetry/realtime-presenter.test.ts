import type { RealtimePayload } from '@linewatch/contracts/socket';
import { realtimePayload } from '@linewatch/contracts/telemetry';
import { describe, expect, it } from 'vitest';
import type { DeviceInfo } from '../core/machine.ts';
import { LiveState } from '../core/live-state.ts';
import { effectsOf, MINUTE_MS, type MachineSnapshot } from '../core/reading-effects.ts';
import { presentRealtime } from './realtime-presenter.ts';
import { writeRealtime } from './realtime-socket.ts';

const TZ = 'Asia/Shanghai';
// 2026-11-22 14:00:30 in Shanghai: the last complete minute is 13:59.
const NOW = Date.UTC(2026, 10, 22, 6, 0, 30);
const LAST_MINUTE = NOW - 30_000 - MINUTE_MS;

const device = {
  sn: 'SN-1',
  deviceName: '贴片机',
  nickSnCode: '',
  lineId: 1,
  gatewayId: 'GW',
  produceTargetNumber: 0,
  ngTargetNumber: 0,
  ppmTarget: 60,
  maxPpm: null,
} as DeviceInfo;

const running = (ts: number, produced: number) => ({
  sn: 'SN-1',
  ts,
  status: 2 as const,
  counters: { produced, ok: produced, ng: 0, firstPassOk: produced },
  alarms: [],
});

/** Feeds readings every 10 s from `from` to NOW, one part a second, into a fresh live state. */
const liveFrom = (from: number, seeded?: MachineSnapshot) => {
  const live = new LiveState(TZ);
  if (seeded)
    live.load(
      { snapshots: new Map([['SN-1', seeded]]), today: new Map(), hourly: [], recentMinutes: [] },
      NOW,
    );
  // One part a second, seeded or not: 10 s after a seeded reading, 10 more parts.
  let produced = seeded ? seeded.produced + 10 : 0;
  for (let ts = from; ts <= NOW; ts += 10_000) {
    live.apply('SN-1', effectsOf(live.snapshot('SN-1'), running(ts, produced), device), NOW);
    produced += 10;
  }
  return live;
};

const currentPpm = (payload: RealtimePayload) =>
  payload.productData.find((d) => d.key === 'ppm')?.value;

describe('实时PPM: the count of the last complete minute', () => {
  it('counts the last minute when the machine was reporting through all of it', () => {
    const live = liveFrom(LAST_MINUTE - 20_000);
    expect(currentPpm(presentRealtime(device, live, TZ, NOW))).toBe(60);
  });

  it('is no data, not a low count, when readings began during that minute (a start)', () => {
    const live = liveFrom(LAST_MINUTE + 40_000);
    expect(currentPpm(presentRealtime(device, live, TZ, NOW))).toBeNull();
  });

  it('continues a run the database remembers across a restart', () => {
    const seeded: MachineSnapshot = {
      ts: LAST_MINUTE - 5_000,
      status: 2,
      idleReason: null,
      produced: 1_000,
      ok: 1_000,
      ng: 0,
      firstPassOk: 1_000,
      activeAlarms: [],
    };
    const live = liveFrom(LAST_MINUTE + 5_000, seeded);
    expect(currentPpm(presentRealtime(device, live, TZ, NOW))).toBe(60);
  });

  it('is no data after a silence longer than the gap limit, and while offline', () => {
    const live = liveFrom(LAST_MINUTE - 20_000);
    const later = NOW + 10 * MINUTE_MS;
    live.apply('SN-1', effectsOf(live.snapshot('SN-1'), running(later, 2_000), device), later);
    expect(currentPpm(presentRealtime(device, live, TZ, later + 5_000))).toBeNull();
    expect(currentPpm(presentRealtime(device, live, TZ, later + 2 * MINUTE_MS))).toBeNull();
  });
});

describe("today's figures", () => {
  it('start from nothing after midnight for a machine that has not reported since', () => {
    const live = liveFrom(LAST_MINUTE - 20_000);
    const figure = (payload: RealtimePayload, key: string) =>
      payload.productData.find((d) => d.key === key)?.value;
    expect(figure(presentRealtime(device, live, TZ, NOW), 'produced')).toBeGreaterThan(0);
    // The next factory day in Shanghai, hours later: yesterday's parts are not today's.
    const nextDay = Date.UTC(2026, 10, 22, 17, 0, 0);
    const payload = presentRealtime(device, live, TZ, nextDay);
    expect(payload.EquipmentStatus).toBe(0);
    expect(Object.fromEntries(payload.productData.map((d) => [d.key, d.value]))).toEqual({
      ppm: null,
      peakPpm: 0,
      avgPpm: null,
      yield: null,
      produced: 0,
      ok: 0,
      ng: 0,
      dt: 0,
    });
    expect(payload.progress.map((p) => p.existing)).toEqual([0, 0]);
  });
});

describe("the socket's text", () => {
  it('is what JSON.stringify writes of the payload, online with alarms and offline alike', () => {
    const live = liveFrom(LAST_MINUTE - 20_000);
    const alarmed = {
      ...running(NOW + 1_000, 5_000),
      alarms: [
        { code: 'E101', active: true },
        { code: 'E999', active: true },
      ],
    };
    live.apply('SN-1', effectsOf(live.snapshot('SN-1'), alarmed, device), NOW + 1_000);
    const online = presentRealtime(
      device,
      live,
      TZ,
      NOW + 2_000,
      new Map([['E101', '吸嘴"堵塞"']]),
    );
    expect(online.alarms).toEqual([
      { code: 'E101', description: '吸嘴"堵塞"' },
      { code: 'E999', description: null },
    ]);
    expect(online.dateData.at(-1)?.partial).toBeGreaterThan(0);
    const offline = presentRealtime(device, new LiveState(TZ), TZ, NOW);
    expect(offline.updatedAt).toBeNull();
    for (const payload of [online, offline]) {
      expect(writeRealtime(payload)).toBe(JSON.stringify(payload));
      expect(realtimePayload.parse(JSON.parse(writeRealtime(payload)))).toEqual(payload);
    }
  });
});
