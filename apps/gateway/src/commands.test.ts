import { NOT_SUPPORTED_CONTENT } from '@linewatch/contracts/gateway-commands';
import { describe, expect, it } from 'vitest';
import { parseCommand } from './commands.ts';

const bytes = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
const correlationId = 'corr-0123456789';

describe('the agent reads commands', () => {
  it('answers ping with 200 and the same correlation id', () => {
    expect(parseCommand(bytes({ type: 'ping', correlationId }))).toEqual({
      reply: { correlationId, code: 200, content: '网关在线' },
    });
  });

  it('hands bind and unbind on to be carried out', () => {
    const bind = {
      type: 'bind',
      correlationId,
      snCode: 'SN-1',
      plcIp: '192.168.1.10',
      iotIp: '192.168.1.2,10.0.0.2',
      plcModel: 'FX5U',
    };
    expect(parseCommand(bytes(bind))).toEqual({ command: bind });
    expect(parseCommand(bytes({ type: 'unbind', correlationId, snCode: 'SN-1' }))).toEqual({
      command: { type: 'unbind', correlationId, snCode: 'SN-1' },
    });
  });

  it('answers a broken command 400 and an unknown one 501, when it can say to whom', () => {
    expect(
      parseCommand(bytes({ type: 'bind', correlationId, snCode: 'SN-1', plcIp: 'x' })),
    ).toEqual({
      reply: { correlationId, code: 400, content: '命令格式不正确' },
    });
    expect(parseCommand(bytes({ type: 'reboot', correlationId }))).toEqual({
      reply: { correlationId, code: 501, content: NOT_SUPPORTED_CONTENT },
    });
  });

  it('drops what carries no usable correlation id, never throws', () => {
    for (const raw of ['', 'not json', 'null', '[]', '42', '{"type":"ping"}'])
      expect(parseCommand(bytes(raw))).toBeNull();
    expect(parseCommand(bytes({ type: 'ping', correlationId: 'short' }))).toBeNull();
  });
});
