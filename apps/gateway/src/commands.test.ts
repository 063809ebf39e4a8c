import { NOT_SUPPORTED_CONTENT } from '@linewatch/contracts/gateway-commands';
import { describe, expect, it } from 'vitest';
import { answer } from './commands.ts';

const bytes = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
const correlationId = 'corr-0123456789';

describe('the agent answers commands', () => {
  it('answers ping with 200 and the same correlation id', () => {
    expect(answer(bytes({ type: 'ping', correlationId }))).toEqual({
      correlationId,
      code: 200,
      content: '网关在线',
    });
  });

  it('refuses bind and unbind as not supported yet (501)', () => {
    const bind = {
      type: 'bind',
      correlationId,
      snCode: 'SN-1',
      plcIp: '192.168.1.10',
      iotIp: '192.168.1.2,10.0.0.2',
      plcModel: 'FX5U',
    };
    expect(answer(bytes(bind))).toEqual({
      correlationId,
      code: 501,
      content: NOT_SUPPORTED_CONTENT,
    });
    expect(answer(bytes({ type: 'unbind', correlationId, snCode: 'SN-1' }))?.code).toBe(501);
  });

  it('answers a broken command 400 and an unknown one 501, when it can say to whom', () => {
    expect(answer(bytes({ type: 'bind', correlationId, snCode: 'SN-1', plcIp: 'x' }))).toEqual({
      correlationId,
      code: 400,
      content: '命令格式不正确',
    });
    expect(answer(bytes({ type: 'reboot', correlationId }))?.code).toBe(501);
  });

  it('drops what carries no usable correlation id, never throws', () => {
    for (const raw of ['', 'not json', 'null', '[]', '42', '{"type":"ping"}'])
      expect(answer(bytes(raw))).toBeNull();
    expect(answer(bytes({ type: 'ping', correlationId: 'short' }))).toBeNull();
  });
});
