/*
 * The PLCs of the Node-RED comparison (peer/run.ts): N simulated Mitsubishi FX5U PLCs, one Modbus
 * TCP server each on 127.0.0.1, each a machine running one part per read: every read of its
 * registers is answered with the part counters one higher than the read before. So each read
 * carries a value no read carried before, and the time the PLC answered it is known: the
 * comparison's read → screen latency is the time a value reaches the screen minus the time this
 * process served it.
 *
 *   npm run nodered:plcs -w @linewatch/bench -- --machines 50
 *
 * Prints `ports [p0, p1, …]` once all listen. Under peer/run.ts (an IPC channel) it sends
 * `{ ports }` instead, then every 100 ms `{ served: [machine, value, servedAtMs, …] }`, the reads
 * it answered since the last batch; standalone it only serves.
 */
import { plcProfiles, spanOf, type ModbusProfile } from '@linewatch/contracts/plc-profiles';
import { createServer, type Server } from 'node:net';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: { machines: { type: 'string', default: '50' } },
});
const MACHINES = Number(args.machines);
const PROFILE = plcProfiles.FX5U as ModbusProfile;
const SPAN = spanOf(PROFILE);

/**
 * A running FX5U's holding registers from address 0 with `parts` made (all good), as the agent's
 * driver and the flow read them: status 2, the four part counters 32-bit in the profile's word
 * order, no alarm, three setpoints.
 */
const registersOf = (parts: number) => {
  const words = new Array<number>(SPAN.start + SPAN.length).fill(0);
  const put = (r: ModbusProfile['status'], v: number) => {
    if (r.type === 'uint16') words[r.address] = v & 0xffff;
    else {
      const [high, low] = [Math.floor(v / 0x10000) & 0xffff, v & 0xffff];
      const [first, second] = PROFILE.wordOrder === 'high-first' ? [high, low] : [low, high];
      [words[r.address], words[r.address + 1]] = [first, second];
    }
  };
  put(PROFILE.status, 2);
  for (const name of ['produced', 'ok', 'firstPassOk'] as const) put(PROFILE.counters[name], parts);
  PROFILE.setpoints.forEach((r, i) => put(r, [120, 65, 8][i] ?? 0));
  return words;
};

/**
 * A Modbus TCP server answering function 3 (read holding registers) from `registers()`, asked
 * once per request; anything else gets exception 01. (plc-sim's server does the same with every
 * exception a real PLC answers; a bench may not import the gateway's code.)
 */
const startPlc = (registers: () => number[]) =>
  new Promise<Server>((resolve) => {
    const server = createServer((socket) => {
      socket.on('error', () => socket.destroy());
      let pending: Buffer = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
        while (pending.length >= 7 && pending.length >= 6 + pending.readUInt16BE(4)) {
          const length = pending.readUInt16BE(4);
          const pdu = pending.subarray(7, 6 + length);
          let reply: Buffer;
          if (pdu[0] === 3 && pdu.length === 5) {
            const words = registers();
            const [address, quantity] = [pdu.readUInt16BE(1), pdu.readUInt16BE(3)];
            reply = Buffer.alloc(2 + 2 * quantity);
            [reply[0], reply[1]] = [3, 2 * quantity];
            for (let i = 0; i < quantity; i++)
              reply.writeUInt16BE((words[address + i] ?? 0) & 0xffff, 2 + 2 * i);
          } else reply = Buffer.from([((pdu[0] ?? 0) | 0x80) & 0xff, 0x01]);
          const header = Buffer.alloc(7);
          header.writeUInt16BE(pending.readUInt16BE(0), 0);
          header.writeUInt16BE(reply.length + 1, 4);
          header[6] = pending[6]!;
          socket.write(Buffer.concat([header, reply]));
          pending = pending.subarray(6 + length);
        }
      });
    });
    server.listen(0, '127.0.0.1', () => resolve(server));
  });

let batch: number[] = [];
const servers: Server[] = [];
for (let i = 0; i < MACHINES; i++) {
  let parts = 0;
  servers.push(
    await startPlc(() => {
      parts++;
      if (process.send) batch.push(i, parts, Date.now());
      return registersOf(parts);
    }),
  );
}
const ports = servers.map((s) => (s.address() as { port: number }).port);
if (process.send) {
  process.send({ ports });
  setInterval(() => {
    if (batch.length === 0) return;
    process.send!({ served: batch });
    batch = [];
  }, 100);
  process.on('disconnect', () => process.exit(0));
} else console.log(`ports ${JSON.stringify(ports)}`);
const stop = () => process.exit(0);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
