import { describe, expect, it } from 'vitest';
import { emptyFigures } from '../foundation/shared/metrics.ts';
import { detailRow, dtRow, topAlarms } from './presenter.ts';
import type { DeviceTargets } from './repository.ts';

const targets: DeviceTargets = {
  snCode: 'SN-1',
  nickSnCode: '',
  deviceName: '点胶机',
  nickDeviceName: '',
  projectName: '',
  ppmTarget: 60,
  yieldTarget: 95,
  superiorityRateTarget: 90,
  useRateTarget: 80,
};

describe('history presenter', () => {
  it('a period with nothing recorded has no data: null ratios, not zeros', () => {
    const row = detailRow({ label: '08:00', figures: undefined, partial: false }, targets);
    expect(row).toMatchObject({ hasData: false, ppm: null, yieId: null, useRate: null, okNum: 0 });
    expect(dtRow({ label: '08:00', figures: undefined, partial: false })).toEqual({
      dataDate: '08:00',
      hasData: false,
      dtTime: 0,
    });
  });

  it('PPM counts observed-minute parts per covered minute; average PPM is the same figure', () => {
    const figures = {
      ...emptyFigures(),
      produced: 130,
      gapProduced: 10,
      ok: 120,
      ng: 10,
      firstPassOk: 117,
      runningMs: 2 * 60_000,
      idleMs: 60_000,
      faultMs: 60_000,
      maxMinuteProduced: 65,
      coveredMinutes: 2,
    };
    const row = detailRow({ label: '2026-11-20', figures, partial: true }, targets);
    expect(row).toMatchObject({
      hasData: true,
      ppm: 60,
      averagePPM: 60,
      maxPPM: 65,
      yieId: 92.31,
      excellentRate: 90,
      useRate: 50,
      okNum: 120,
      partial: true,
    });
    expect(dtRow({ label: 'x', figures, partial: false }).dtTime).toBe(1);
  });

  it('TOP5: most frequent first, longer first on a tie, five at most, shares of all minutes', () => {
    const total = (code: string, times: number, minutes: number) => ({
      code,
      description: '',
      artificialDes: '',
      times,
      ms: minutes * 60_000,
    });
    const top = topAlarms([
      total('A', 1, 10),
      total('B', 3, 5),
      total('C', 1, 30),
      total('D', 2, 5),
      total('E', 1, 20),
      total('F', 1, 30),
    ]);
    expect(top.map((t) => t.code)).toEqual(['B', 'D', 'C', 'F', 'E']);
    expect(top[0]).toMatchObject({ duration: 5, percentage: 5 });
  });
});
