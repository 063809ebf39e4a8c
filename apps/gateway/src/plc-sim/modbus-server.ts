import net from 'node:net';

/*
 * A Modbus TCP server of holding registers (function code 3), answering as the Modbus application
 * protocol (v1.1b3) says a server must: exception 01 for a function it does not serve, 03 for a
 * quantity outside 1..125, 02 for registers past its memory, checked in that order; 0B (gateway
 * target failed to respond) for a unit id it does not serve. modbus-serial's ServerTCP stayed
 * silent for the first (every scanner waited its full timeout), answered zeros for the second and
 * 126 registers for the third.
 */

export const EXCEPTION = {
  illegalFunction: 0x01,
  illegalDataAddress: 0x02,
  illegalDataValue: 0x03,
  gatewayTargetFailed: 0x0b,
} as const;

const READ_HOLDING_REGISTERS = 3;
const MAX_READ = 125;
/** MBAP header: transaction id, protocol id (0), length (of unit id + PDU), unit id. */
const MBAP = 7;

/** Each unit's holding registers, the index being the 0-based address. */
export type Units = ReadonlyMap<number, readonly number[]>;

const exception = (functionCode: number, code: number) =>
  Buffer.from([(functionCode | 0x80) & 0xff, code]);

/** One request PDU to its response PDU. No I/O. */
export const respond = (units: Units, unitId: number, pdu: Buffer): Buffer => {
  const functionCode = pdu[0] ?? 0;
  // TCP's "this device" (0xFF, the spec's advice) reaches a port that serves one unit.
  const memory =
    units.get(unitId) ?? (units.size === 1 && unitId === 0xff ? [...units.values()][0] : undefined);
  if (!memory) return exception(functionCode, EXCEPTION.gatewayTargetFailed);
  if (functionCode !== READ_HOLDING_REGISTERS)
    return exception(functionCode, EXCEPTION.illegalFunction);
  if (pdu.length !== 5) return exception(functionCode, EXCEPTION.illegalDataValue);
  const address = pdu.readUInt16BE(1);
  const quantity = pdu.readUInt16BE(3);
  if (quantity < 1 || quantity > MAX_READ)
    return exception(functionCode, EXCEPTION.illegalDataValue);
  if (address + quantity > memory.length)
    return exception(functionCode, EXCEPTION.illegalDataAddress);
  const reply = Buffer.alloc(2 + 2 * quantity);
  reply[0] = functionCode;
  reply[1] = 2 * quantity;
  for (let i = 0; i < quantity; i++) reply.writeUInt16BE(memory[address + i]! & 0xffff, 2 + 2 * i);
  return reply;
};

export interface ModbusServer {
  port: number;
  close(): Promise<void>;
}

/** Listens on `host:port` (0: any free port) until closed. */
export const startModbusServer = async (
  host: string,
  port: number,
  units: Units,
  /** Called before each request is answered (a server whose memory follows a live image). */
  beforeRequest?: () => void,
): Promise<ModbusServer> => {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let pending: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      while (pending.length >= MBAP) {
        const length = pending.readUInt16BE(4);
        // Not Modbus TCP (a protocol id other than 0, a length no PDU has): hang up, as a PLC does.
        if (pending.readUInt16BE(2) !== 0 || length < 2 || length > 254) {
          socket.destroy();
          return;
        }
        if (pending.length < 6 + length) return;
        const unitId = pending[6]!;
        beforeRequest?.();
        const reply = respond(units, unitId, pending.subarray(MBAP, 6 + length));
        const header = Buffer.alloc(MBAP);
        header.writeUInt16BE(pending.readUInt16BE(0), 0);
        header.writeUInt16BE(reply.length + 1, 4);
        header[6] = unitId;
        socket.write(Buffer.concat([header, reply]));
        pending = pending.subarray(6 + length);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    close: async () => {
      // Connected clients are cut off as a powered-down PLC would cut them off.
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
