import fs from 'node:fs';
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

describe('the agent configs in docs/gateways.md', () => {
  const docs = fs.readFileSync(new URL('../../../docs/gateways.md', import.meta.url), 'utf8');
  const examples = [...docs.matchAll(/```json\n([\s\S]*?)```/g)]
    .map((m) => JSON.parse(m[1]!) as Record<string, unknown>)
    .filter((example) => 'gateways' in example);

  it('parse with the agent’s own schema, and show a machine of each kind', () => {
    const drivers = examples.flatMap((example) =>
      parseConfig(example, '/etc/linewatch').gateways.flatMap((g) =>
        g.machines.map((m) => m.driver),
      ),
    );
    expect(new Set(drivers)).toEqual(new Set(['modbus', 'opcua', 's7']));
  });
});

describe('PLC machines', () => {
  const withMachine = (machine: Record<string, unknown>) =>
    parseConfig(
      { brokerUrl: 'mqtt://127.0.0.1:1883', gateways: [gateway({ machines: [machine] })] },
      '/etc/lw',
    );

  it('refuse a model of another protocol than their driver, naming both', () => {
    expect(() =>
      withMachine({ driver: 'modbus', sn: 'SN-1', plcIp: '10.0.0.1', plcModel: 'OPCUA-LW' }),
    ).toThrow(
      'config: gateways[0].machines[0].plcModel: PLC model OPCUA-LW is read over opcua, not modbus',
    );
  });

  it('fill in OPC UA’s defaults and resolve its certificate files against the config file', () => {
    const machine = withMachine({
      driver: 'opcua',
      sn: 'SN-1',
      plcIp: '10.0.0.1',
      plcModel: 'OPCUA-LW',
      certificate: { certificateFile: 'pki/cert.pem', privateKeyFile: 'pki/key.pem' },
    }).gateways[0]!.machines[0]!;
    expect(machine).toMatchObject({
      securityMode: 'None',
      securityPolicy: 'None',
      subscribe: true,
      certificate: {
        certificateFile: '/etc/lw/pki/cert.pem',
        privateKeyFile: '/etc/lw/pki/key.pem',
      },
    });
  });
});
