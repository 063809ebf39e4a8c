import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from './config.ts';

const gateway = (over: Record<string, unknown> = {}) => ({
  id: 'LWGW00000001',
  password: 'secret',
  bufferDir: 'buf/LWGW00000001',
  machines: [{ sn: 'SN-A01-001', driver: 'simulated' }],
  ...over,
});

describe('parseConfig', () => {
  it('fills defaults and resolves buffer dirs against the config file', () => {
    const config = parseConfig(
      { brokerUrl: 'mqtt://127.0.0.1:1883', gateways: [gateway()] },
      '/etc/lw',
    );
    expect(config).toMatchObject({
      pollIntervalMs: 1000,
      heartbeatMs: 5000,
      ackTimeoutMs: 10_000,
      bufferMaxMessages: 100_000,
      readingsPerMessage: 500,
      keepaliveSec: 30,
      reconnectMinMs: 1000,
      reconnectMaxMs: 1500,
    });
    expect(config.gateways[0]!.bufferDir).toBe(path.resolve('/etc/lw/buf/LWGW00000001'));
    expect(config.gateways[0]!.machines[0]).toMatchObject({
      ppmTarget: 60,
      faultRate: 0.02,
      resetRate: 0,
      timeScale: 1,
    });
  });

  it.each([
    [{ pollIntervalMs: -5 }, /^config: pollIntervalMs: /],
    [{ brokerUrl: 'localhost:1883' }, /^config: brokerUrl: expected an mqtt/],
    [{ pollIntervalMS: 5 }, /^config: pollIntervalMS: unknown field$/],
    [{ gateways: [] }, /^config: gateways: /],
    [{ gateways: [gateway({ id: 'bad id' })] }, /^config: gateways\[0\]\.id: /],
    [
      { gateways: [gateway({ machines: [{ sn: 'SN-1', driver: 'simulated', ppmTarget: 0 }] })] },
      /^config: gateways\[0\]\.machines\[0\]\.ppmTarget: /,
    ],
    [
      { gateways: [gateway({ machines: [{ sn: 'SN-1', driver: 'profinet' }] })] },
      /^config: gateways\[0\]\.machines\[0\]\.driver: /,
    ],
    [
      { gateways: [gateway(), gateway({ bufferDir: 'other' })] },
      /^config: gateways\[1\]\.id: duplicate/,
    ],
    [{ reconnectMinMs: 5000, reconnectMaxMs: 1000 }, /^config: reconnectMaxMs: /],
  ])('names the offending field in one line: %j', (override, message) => {
    const raw = { brokerUrl: 'mqtt://127.0.0.1:1883', gateways: [gateway()], ...override };
    expect(() => parseConfig(raw)).toThrow(message);
    expect(() => parseConfig(raw)).not.toThrow(/\n/);
  });
});
