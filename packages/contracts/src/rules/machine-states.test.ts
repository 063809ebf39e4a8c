import { describe, expect, it } from 'vitest';
import {
  DEVICE_STATUSES,
  deviceStatusLabels,
  deviceStatusOf,
  deviceStatusOfEquipment,
  EQUIPMENT_STATUS,
  isMachineState,
  MACHINE_STATE,
} from './machine-states.ts';

describe('machine states (docs/product.md section 4, device light)', () => {
  it('are 1 idle, 2 running, 3 fault, and nothing else', () => {
    expect(MACHINE_STATE).toEqual({ idle: 1, running: 2, fault: 3 });
    expect([0, 1, 2, 3, 4].filter(isMachineState)).toEqual([1, 2, 3]);
  });

  it('show as standBy, running and error; silence as offLine', () => {
    expect([1, 2, 3].map((s) => deviceStatusOf(s as 1 | 2 | 3))).toEqual([
      'standBy',
      'running',
      'error',
    ]);
    for (const status of DEVICE_STATUSES)
      expect(deviceStatusOfEquipment(EQUIPMENT_STATUS[status])).toBe(status);
    expect(EQUIPMENT_STATUS.offLine).toBe(0);
  });

  it('have their words', () => {
    expect(DEVICE_STATUSES.map((s) => deviceStatusLabels[s])).toEqual([
      '运行',
      '待机',
      '故障',
      '离线',
    ]);
  });
});
