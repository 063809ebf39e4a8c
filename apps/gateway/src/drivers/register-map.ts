import { type ModbusProfile } from '@linewatch/contracts/plc-profiles';
import { IDLE_CODES, imageOf, type PlcImage } from './figures.ts';

type Register = ModbusProfile['status'];

/** Register words → image. `words[0]` is the register at `start`. */
export const decode = (
  profile: ModbusProfile,
  start: number,
  words: readonly number[],
): PlcImage => {
  const word = (address: number) => {
    const value = words[address - start];
    if (value === undefined) throw new Error(`register ${address} not read`);
    return value & 0xffff;
  };
  const value = (r: Register) => {
    if (r.type === 'uint16') return word(r.address);
    const [high, low] =
      profile.wordOrder === 'high-first'
        ? [word(r.address), word(r.address + 1)]
        : [word(r.address + 1), word(r.address)];
    return high * 0x10000 + low;
  };
  const activeAlarms: string[] = [];
  profile.alarmCodes.forEach((code, bit) => {
    if (word(profile.alarmWords.address + Math.floor(bit / 16)) & (1 << (bit % 16)))
      activeAlarms.push(code);
  });
  return imageOf({
    status: value(profile.status),
    idleReason: value(profile.idleReason),
    counters: {
      produced: value(profile.counters.produced),
      ok: value(profile.counters.ok),
      ng: value(profile.counters.ng),
      firstPassOk: value(profile.counters.firstPassOk),
    },
    activeAlarms,
    setpoints: profile.setpoints.map(value),
  });
};

/** Image → register words from `start` (the simulated PLC's memory). */
export const encode = (profile: ModbusProfile, image: PlcImage, start: number, words: number[]) => {
  const put = (r: Register, v: number) => {
    const at = r.address - start;
    if (r.type === 'uint16') {
      words[at] = v & 0xffff;
      return;
    }
    // A 32-bit counter wraps as the PLC's would.
    const high = Math.floor(v / 0x10000) & 0xffff;
    const low = v & 0xffff;
    if (profile.wordOrder === 'high-first') [words[at], words[at + 1]] = [high, low];
    else [words[at], words[at + 1]] = [low, high];
  };
  put(profile.status, image.status);
  put(profile.idleReason, image.idleReason ? IDLE_CODES[image.idleReason] : 0);
  put(profile.counters.produced, image.counters.produced);
  put(profile.counters.ok, image.counters.ok);
  put(profile.counters.ng, image.counters.ng);
  put(profile.counters.firstPassOk, image.counters.firstPassOk);
  for (let i = 0; i < profile.alarmWords.count; i++)
    words[profile.alarmWords.address - start + i] = 0;
  for (const code of image.activeAlarms) {
    const bit = profile.alarmCodes.indexOf(code);
    if (bit < 0) continue;
    const at = profile.alarmWords.address - start + Math.floor(bit / 16);
    words[at] = (words[at] ?? 0) | (1 << (bit % 16));
  }
  profile.setpoints.forEach((r, i) => put(r, image.setpoints[i] ?? 0));
};
