import { describe, expect, it } from 'vitest';
import { presentGateway, presentPlcModels } from './presenter.ts';

describe('gateways presenter', () => {
  it('a gateway never heard says null; a bound machine keeps its PLC', () => {
    const row = presentGateway({
      serial: 'GW000001',
      name: '一号网关',
      online: false,
      lastSeenAt: null,
      agentVersion: null,
      machines: [
        {
          gatewayId: 'GW000001',
          snCode: 'SN-1',
          plcIp: '10.0.0.5',
          plcPort: 502,
          unitId: 1,
          plcModel: 'FX5U',
        },
      ],
    });
    expect(row).toEqual({
      serial: 'GW000001',
      name: '一号网关',
      online: false,
      lastSeenAt: null,
      agentVersion: null,
      machines: [{ snCode: 'SN-1', plcIp: '10.0.0.5', plcPort: 502, unitId: 1, plcModel: 'FX5U' }],
    });
  });

  it('last heard is epoch ms; no machines is an empty list', () => {
    const row = presentGateway({
      serial: 'GW000002',
      name: '',
      online: true,
      lastSeenAt: new Date('2026-03-01T08:00:00.000Z'),
      agentVersion: '1.2.0',
      machines: [],
    });
    expect(row.lastSeenAt).toBe(Date.parse('2026-03-01T08:00:00.000Z'));
    expect(row.machines).toEqual([]);
  });

  it('every PLC model is offered with its protocol and default port', () => {
    const options = presentPlcModels();
    expect(options.length).toBeGreaterThan(0);
    for (const o of options) {
      expect(o.label).not.toBe('');
      expect(['modbus', 'opcua', 's7']).toContain(o.protocol);
      expect(o.port).toBeGreaterThan(0);
    }
  });
});
