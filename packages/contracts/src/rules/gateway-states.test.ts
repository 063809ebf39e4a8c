import { describe, expect, it } from 'vitest';
import { IOT_STATE, iotLabels, iotStateOf } from './gateway-states.ts';

describe("a machine's gateway state (docs/product.md section 3, iot)", () => {
  it('is 0 unbound, 1 online, 2 offline', () => {
    expect(iotStateOf(null)).toBe(0);
    expect(iotStateOf(true)).toBe(1);
    expect(iotStateOf(false)).toBe(2);
  });

  it('speaks of the gateway', () => {
    expect(Object.values(IOT_STATE).map((s) => iotLabels[s])).toEqual([
      '未绑定网关',
      '网关在线',
      '网关离线',
    ]);
  });
});
