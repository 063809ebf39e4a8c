import { describe, expect, it } from 'vitest';
import {
  modbusProfiles,
  opcuaNodeId,
  opcuaProfiles,
  plcProfile,
  plcProfiles,
  s7Profiles,
} from './plc-profiles.ts';

describe('PLC profiles', () => {
  it('offer a model of each protocol, a profile naming no protocol being Modbus', () => {
    expect(modbusProfiles.FX5U?.protocol).toBe('modbus');
    expect(Object.keys(opcuaProfiles)).toContain('OPCUA-LW');
    expect(Object.keys(s7Profiles)).toContain('S7-1200-S7');
    const count =
      Object.keys(modbusProfiles).length +
      Object.keys(opcuaProfiles).length +
      Object.keys(s7Profiles).length;
    expect(count).toBe(Object.keys(plcProfiles).length);
  });

  it('fill in each protocol’s connection defaults', () => {
    const opcua = plcProfile.parse({ ...opcuaProfiles['OPCUA-LW'], port: undefined });
    expect(opcua).toMatchObject({ port: 4840, endpointPath: '' });
    const { rack, slot, port, ...s7 } = s7Profiles['S7-1200-S7']!;
    expect([rack, slot, port]).toEqual([0, 1, 102]);
    expect(plcProfile.parse(s7)).toMatchObject({ rack: 0, slot: 1, port: 102 });
  });

  it.each([
    'ns=2;s=Line1.Status',
    'i=2258',
    'ns=3;s="DB_Linewatch"."Status"',
    'ns=1;g=09087e75-8e5e-499b-954f-f2a9603db28a',
    'ns=1;b=M/RbKBsRVkePCePcx24oRA==',
  ])('take the OPC UA node id %s', (id) => {
    expect(opcuaNodeId.safeParse(id).success).toBe(true);
  });

  it.each(['Line1.Status', 'ns=x;s=a', 'ns=2;q=1', 'ns=2;s=', 'ns=1;g=not-a-guid'])(
    'refuse the OPC UA node id %s',
    (id) => {
      expect(opcuaNodeId.safeParse(id).success).toBe(false);
    },
  );

  it('refuse an S7 address of the wrong kind for its figure', () => {
    const base = s7Profiles['S7-1200-S7']!;
    const parse = (changes: object) => plcProfile.safeParse({ ...base, ...changes });
    expect(parse({}).success).toBe(true);
    // A bit is an alarm, never a status; an alarm is a bit; a block number starts at 1.
    expect(parse({ status: 'DB1,X0.0' }).success).toBe(false);
    expect(parse({ alarms: [{ code: 'E1', address: 'DB1,INT20' }] }).success).toBe(false);
    expect(parse({ alarms: [{ code: 'E1', address: 'DB1,X20.8' }] }).success).toBe(false);
    expect(parse({ status: 'DB0,INT0' }).success).toBe(false);
    expect(parse({ status: 'M0.0' }).success).toBe(false);
    expect(parse({ setpoints: [{ name: 'x', address: 'DB1,REAL4' }] }).success).toBe(false);
  });

  it('refuse a profile of an unknown protocol', () => {
    const result = plcProfile.safeParse({ ...modbusProfiles.FX5U, protocol: 'profinet' });
    expect(result.success).toBe(false);
  });
});
