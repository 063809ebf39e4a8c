import type { S7Profile } from '@linewatch/contracts/plc-profiles';
import { createRequire } from 'node:module';
import type { PlcImage } from '../drivers/figures.ts';
import { IDLE_CODES } from '../drivers/figures.ts';

export interface S7PlcOptions {
  host: string;
  port: number;
  profile: S7Profile;
  /** What the PLC holds now, written into its data blocks every `tickMs`. */
  image: () => PlcImage;
  tickMs?: number;
}

/** What we use of node-snap7's S7Server (it ships no types). */
interface Snap7Server {
  readonly srvAreaDB: number;
  readonly LocalPort: number;
  SetParam(param: number, value: number): boolean;
  RegisterArea(area: number, index: number, buffer: Buffer): boolean;
  UnregisterArea(area: number, index: number): boolean;
  SetArea(area: number, index: number, buffer: Buffer): boolean;
  StartTo(host: string, callback: (error?: number) => void): void;
  Stop(): boolean;
  ErrorText(code: number): string;
}

/**
 * node-snap7, a native addon (an optional dependency: it is compiled at install time). Loaded
 * on first use so that an agent or a demo without it still runs everything else.
 */
export const loadSnap7 = (): { S7Server: new () => Snap7Server } => {
  try {
    return createRequire(import.meta.url)('node-snap7') as { S7Server: new () => Snap7Server };
  } catch (error) {
    throw new Error(
      `the S7 PLC server needs node-snap7, a native module that did not load (${(error as Error).message.split('\n')[0]}); ` +
        'build it with `npm rebuild node-snap7` (python3, make and a C++ compiler)',
    );
  }
};

const SIZES = { X: 1, BYTE: 1, INT: 2, WORD: 2, DINT: 4, DWORD: 4 } as const;
type S7Type = keyof typeof SIZES;

const parse = (address: string) => {
  const [, db, type, offset, bit] = /^DB(\d+),([A-Z]+)(\d+)(?:\.(\d))?$/.exec(address)!;
  return { db: Number(db), type: type as S7Type, offset: Number(offset), bit: Number(bit ?? 0) };
};

const put = (blocks: Map<number, Buffer>, address: string, value: number | boolean) => {
  const { db, type, offset, bit } = parse(address);
  const block = blocks.get(db)!;
  const n = Number(value);
  switch (type) {
    case 'X':
      block[offset] = value ? block[offset]! | (1 << bit) : block[offset]! & ~(1 << bit);
      return;
    case 'BYTE':
      return void block.writeUInt8(n & 0xff, offset);
    case 'INT':
      return void block.writeInt16BE((n << 16) >> 16, offset);
    case 'WORD':
      return void block.writeUInt16BE(n & 0xffff, offset);
    // A 32-bit counter wraps as the PLC's would.
    case 'DINT':
      return void block.writeInt32BE(n | 0, offset);
    case 'DWORD':
      return void block.writeUInt32BE(n >>> 0, offset);
  }
};

/**
 * The process's one snap7 server. node-snap7 keeps its event handles in globals that every
 * S7Server re-initialises and every collected one closes, so a second server in a process, or a
 * new one after a collected one, aborts the process (SIGABRT) or hangs its start: one server,
 * created on first use and never let go, stopped and started again for each PLC.
 */
let snap7: { server: Snap7Server; serving: boolean } | undefined;

/**
 * snap7's S7 server with the data blocks an S7 profile addresses, for the simulated PLCs of
 * plc-sim, the demo and the tests. The agent's S7 driver reads it as it reads an S7-1200. One at
 * a time in a process (above): a second while one serves is refused, saying so.
 */
export const startS7Plc = async (options: S7PlcOptions) => {
  snap7 ??= { server: new (loadSnap7().S7Server)(), serving: false };
  const shared = snap7;
  if (shared.serving)
    throw new Error(
      'S7 server: one S7 PLC per process (node-snap7 shares its event handles among servers); ' +
        'start another S7 PLC in a process of its own',
    );
  const { server } = shared;
  const { profile, image } = options;
  const addresses = [
    profile.status,
    profile.idleReason,
    ...Object.values(profile.counters),
    ...profile.alarms.map((a) => a.address),
    ...profile.setpoints.map((s) => s.address),
  ];
  const blocks = new Map<number, Buffer>();
  for (const address of addresses) {
    const { db, type, offset } = parse(address);
    const size = Math.max(blocks.get(db)?.length ?? 0, offset + SIZES[type]);
    blocks.set(db, Buffer.alloc(size));
  }
  const write = () => {
    const now = image();
    put(blocks, profile.status, now.status);
    put(blocks, profile.idleReason, now.idleReason ? IDLE_CODES[now.idleReason] : 0);
    for (const counter of ['produced', 'ok', 'ng', 'firstPassOk'] as const)
      put(blocks, profile.counters[counter], now.counters[counter]);
    for (const alarm of profile.alarms)
      put(blocks, alarm.address, now.activeAlarms.includes(alarm.code));
    profile.setpoints.forEach((s, i) => put(blocks, s.address, now.setpoints[i] ?? 0));
    for (const [db, block] of blocks) server.SetArea(server.srvAreaDB, db, block);
  };
  const release = () => {
    server.Stop();
    for (const db of blocks.keys()) server.UnregisterArea(server.srvAreaDB, db);
    shared.serving = false;
  };
  shared.serving = true;
  for (const [db, block] of blocks) server.RegisterArea(server.srvAreaDB, db, block);
  write();
  server.SetParam(server.LocalPort, options.port);
  try {
    await new Promise<void>((resolve, reject) =>
      server.StartTo(options.host, (error) =>
        error ? reject(new Error(`S7 server: ${server.ErrorText(error)}`)) : resolve(),
      ),
    );
  } catch (error) {
    release();
    throw error;
  }
  const timer = setInterval(write, options.tickMs ?? 100);
  let closed = false;
  return {
    host: options.host,
    port: options.port,
    // Once: a second close must not stop the PLC started after this one.
    close: async () => {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      release();
    },
  };
};
