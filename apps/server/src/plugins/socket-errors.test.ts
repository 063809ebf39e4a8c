import websocket from '@fastify/websocket';
import { SOCKET_MAX_PAYLOAD_BYTES } from '@linewatch/contracts/limits';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { openSocket } from '../test/socket.ts';
import { websocketOptions } from './auth.ts';

// One oversized frame logged an error with its stack: a client could fill the log by opening
// sockets and sending too much. A client's protocol fault is the client's: one warning, no stack.

let app: FastifyInstance | undefined;
afterEach(() => app?.close());

const serverWithLog = async () => {
  const lines: { level: number; msg: string; err?: { stack?: string } }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as (typeof lines)[number]);
      done();
    },
  });
  app = Fastify({ logger: { level: 'info', stream } });
  await app.register(websocket, websocketOptions);
  app.get('/ws', { websocket: true }, () => undefined);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { wsUrl: `ws://127.0.0.1:${port}`, lines };
};

describe('a socket sent more than a message may hold', () => {
  it('closes with 1009 and logs one warning without a stack', async () => {
    const { wsUrl, lines } = await serverWithLog();
    const socket = openSocket(wsUrl, '/ws');
    expect(await socket.opened).toBe(true);
    socket.send({ padding: 'x'.repeat(SOCKET_MAX_PAYLOAD_BYTES) });
    socket.send({ padding: 'y'.repeat(SOCKET_MAX_PAYLOAD_BYTES) });
    expect(await socket.closed).toMatchObject({ code: 1009 });
    const faults = lines.filter((l) => l.level >= 40);
    expect(faults).toHaveLength(1);
    expect(faults[0]).toMatchObject({ level: 40 });
    expect(JSON.stringify(faults[0])).not.toContain('at ');
  });
});
