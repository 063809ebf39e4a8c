import { describe, expect, it } from 'vitest';
import { machineBody, machineImportRow } from './admin.ts';
import { bindCommand } from './gateway-commands.ts';
import { bindForm, bindMessage } from './gateways.ts';
import { operationEvent, reading } from './mqtt.ts';
import { primitiveMessages } from './primitives.ts';

/*
 * One SN alphabet for every way a machine's SN enters the product: a machine an admin can register
 * must be one a gateway can report and a technician can bind (a dot once passed the admin forms
 * and the sheet, and was then refused by bind and ingest for good).
 */
const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : result.error!.issues[0]!.message;

const entries: [string, (sn: string) => { success: boolean }][] = [
  ['admin create/edit', (sn) => machineBody.safeParse({ snCode: sn, lineId: 1, deviceName: 'a' })],
  [
    'sheet import row',
    (sn) => machineImportRow.safeParse({ snCode: sn, line: '一线', deviceName: 'a' }),
  ],
  [
    'bind form',
    (sn) =>
      bindForm.safeParse({
        snCode: sn,
        iotId: 'GW0000000001',
        plcIp: '192.168.1.10',
        plcPort: '502',
        unitId: '1',
        iotIp1: '192.168.1.2',
        iotIp2: '10.0.0.2',
        plcModel: 'FX5U',
      }),
  ],
  [
    'bind message',
    (sn) =>
      bindMessage.safeParse({
        MsgType: 'bind',
        snCode: sn,
        iotId: 'GW0000000001',
        plcIp: '192.168.1.10',
        iotIp: '192.168.1.2,10.0.0.2',
        plcModel: 'FX5U',
      }),
  ],
  [
    'bind command (MQTT)',
    (sn) =>
      bindCommand.safeParse({
        type: 'bind',
        snCode: sn,
        plcIp: '192.168.1.10',
        iotIp: '192.168.1.2,10.0.0.2',
        plcModel: 'FX5U',
      }),
  ],
  [
    'telemetry reading',
    (sn) =>
      reading.safeParse({
        sn,
        ts: Date.UTC(2026, 0, 1),
        status: 2,
        counters: { produced: 1, ok: 1, ng: 0, firstPassOk: 1 },
        alarms: [],
      }),
  ],
  [
    'operation event',
    (sn) =>
      operationEvent.safeParse({
        type: 'operation',
        sn,
        ts: Date.UTC(2026, 0, 1),
        comment: 'c',
        setValue: '1',
        user: 'u',
      }),
  ],
];

describe('the SN alphabet', () => {
  it.each(entries)('%s accepts letters, digits, - and _', (_, parse) => {
    for (const sn of ['LW-P1-001', 'tp_dot_01', 'A', 'x'.repeat(64)])
      expect(parse(sn).success, sn).toBe(true);
  });

  it.each(entries)('%s refuses TP.DOT.01, spaces, Chinese and 65 characters', (_, parse) => {
    for (const sn of ['TP.DOT.01', 'TP DOT', '机台1', 'a/b', 'x'.repeat(65)])
      expect(parse(sn).success, sn).toBe(false);
  });

  it('says why in Chinese wherever a person typed it', () => {
    const admin = machineBody.safeParse({ snCode: 'TP.DOT.01', lineId: 1, deviceName: 'a' });
    expect(firstMessage(admin)).toBe(primitiveMessages.snInvalid);
    expect(primitiveMessages.snInvalid).toBe('SN码只能包含字母、数字、- 和 _');
    const sheet = machineImportRow.safeParse({ snCode: 'TP.DOT.01', line: '一线' });
    expect(firstMessage(sheet)).toBe(primitiveMessages.snInvalid);
    const bind = bindMessage.safeParse({
      MsgType: 'bind',
      snCode: 'TP.DOT.01',
      iotId: 'GW0000000001',
      plcIp: '192.168.1.10',
      iotIp: '192.168.1.2,10.0.0.2',
      plcModel: 'FX5U',
    });
    expect(firstMessage(bind)).toBe(primitiveMessages.snInvalid);
  });
});
