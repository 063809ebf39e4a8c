import fs from 'node:fs';
import path from 'node:path';
import type { OperationEvent } from '@linewatch/contracts/mqtt';
import { MACHINE_STATE, type MachineState } from '@linewatch/contracts/rules/machine-states';
import type { DriverReading, MachineDriver } from './driver.ts';

export interface SimulatedMachineOptions {
  sn: string;
  /** Defaults to a hash of the sn: machines differ from each other but not between restarts. */
  seed?: number | undefined;
  /** Mean parts per minute while running. */
  ppmTarget: number;
  /** Expected faults per running minute; 0.02 puts a machine in fault about 8% of the time. */
  faultRate: number;
  /** Expected PLC reboots (counters back to 0) per simulated hour. */
  resetRate: number;
  /** Simulated milliseconds per real millisecond. */
  timeScale: number;
  /**
   * Where the PLC keeps its memory (`<sn>.json`): a real PLC keeps its counters when the gateway
   * restarts, so a simulator given a directory continues where it stopped. Without one it starts
   * fresh every time (tests).
   */
  stateDir?: string | undefined;
  /**
   * A machine waiting for maintenance: a fresh PLC starts in a fault with this alarm and stays
   * in it for `faultMinutes`; once repaired it runs for `runMinutes` (no other stops) and falls
   * into the same fault again. Gives the demo, and the browser journeys, a machine known to be
   * in fault with a known alarm.
   */
  maintenance?: MaintenanceFault | undefined;
}

interface MaintenanceFault {
  alarm: string;
  faultMinutes: number;
  runMinutes: number;
}

/** Everything the simulation needs to continue exactly, including the random generator. */
interface SavedState {
  version: 1;
  random: number;
  simNow: number;
  realNow: number | null;
  status: MachineState;
  idleReason?: 'upstream' | 'downstream' | undefined;
  stateEndsAt: number | null;
  speed: number;
  partialParts: number;
  counters: { produced: number; ok: number; ng: number; firstPassOk: number };
  alarm: { code: string; active: boolean } | null;
  setpoints: number[];
  nextOperationAt: number;
  nextResetAt: number | null;
}

/** Real time between two saves of the PLC state; a kill loses nothing, see `restore`. */
const SAVE_EVERY_MS = 5000;
/**
 * Real time a restored PLC catches up on at most; a longer stop counts as the machine being
 * switched off for the rest (and keeps a restart after weeks from simulating weeks).
 */
const MAX_CATCH_UP_MS = 3_600_000;

const MINUTE = 60_000;
/** Stops for starved or blocked lines per running minute: with faultRate 0.02, ~12% idle. */
const IDLE_RATE = 0.05;
const ALARMS = [
  'E101', // 送料超时
  'E205', // 气压不足
  'E307', // 伺服报警
  'E412', // 安全门打开
  'E518', // 温度过高
] as const;
const SETPOINTS = [
  { name: '速度设定', initial: 100, step: 5, min: 80, max: 120 },
  { name: '温度设定', initial: 185, step: 5, min: 170, max: 200 },
  { name: '压力设定', initial: 600, step: 20, min: 500, max: 700 },
] as const;
const OPERATORS = ['操作员张三', '操作员李四', '班长王五'] as const;

/** A deterministic PLC: same seed and same read times give the same readings and events. */
export class SimulatedDriver implements MachineDriver {
  readonly sn: string;
  private readonly random: Mulberry32;
  private readonly stateFile: string | null;
  private savedAt = -Infinity;
  private readonly ngRate: number;
  private readonly firstPassRate: number;
  /** Simulated clock (ms since the first read) and the real time it corresponds to. */
  private simNow = 0;
  private realNow: number | null = null;
  private status: MachineState = MACHINE_STATE.running;
  private idleReason: 'upstream' | 'downstream' | undefined;
  private stateEndsAt = 0;
  private speed = 1;
  private partialParts = 0;
  private readonly counters = { produced: 0, ok: 0, ng: 0, firstPassOk: 0 };
  private alarm: { code: string; active: boolean } | null = null;
  private readonly setpoints: number[] = SETPOINTS.map((s) => s.initial);
  private nextOperationAt: number;
  private nextResetAt: number;
  private events: OperationEvent[] = [];

  constructor(private readonly options: SimulatedMachineOptions) {
    this.sn = options.sn;
    this.random = new Mulberry32(options.seed ?? fnv1a(options.sn));
    this.stateFile = options.stateDir ? path.join(options.stateDir, `${options.sn}.json`) : null;
    this.ngRate = this.between(0.01, 0.03);
    this.firstPassRate = this.between(0.95, 0.99);
    const produced = Math.floor(this.between(0, 100_000));
    this.counters.produced = produced;
    this.counters.ng = Math.round(produced * this.ngRate);
    this.counters.ok = produced - this.counters.ng;
    this.counters.firstPassOk = Math.round(this.counters.ok * this.firstPassRate);
    // Start somewhere in the long-run mix rather than always running.
    const u = this.random.next();
    if (options.maintenance) this.enter(3);
    else if (u < 0.8) this.enter(2);
    else if (u < 0.92) this.enter(1);
    else this.enter(3);
    this.nextOperationAt = this.between(10, 20) * MINUTE;
    this.nextResetAt = this.afterExponential(options.resetRate / 60);
    this.restore();
  }

  read(now: number): Promise<DriverReading> {
    if (this.realNow !== null && now - this.realNow > MAX_CATCH_UP_MS)
      this.realNow = now - MAX_CATCH_UP_MS;
    if (this.realNow !== null && now > this.realNow) this.advance(now);
    this.realNow = Math.max(now, this.realNow ?? now);
    if (now - this.savedAt >= SAVE_EVERY_MS) this.save(now);
    return Promise.resolve({
      status: this.status,
      ...(this.idleReason && { idleReason: this.idleReason }),
      counters: { ...this.counters },
      alarms: this.alarm ? [{ ...this.alarm }] : [],
      params: Object.fromEntries(SETPOINTS.map((s, i) => [s.name, this.setpoints[i]!])),
    });
  }

  takeEvents(): OperationEvent[] {
    const events = this.events;
    this.events = [];
    return events;
  }

  close(): Promise<void> {
    if (this.realNow !== null) this.save(this.realNow);
    return Promise.resolve();
  }

  /**
   * Continues from the saved state. The simulation is deterministic in simulated time, and the
   * saved state carries the real time it stood at: the first read advances from there, so the
   * PLC "kept running" while the gateway was down, and after a kill -9 (state up to
   * SAVE_EVERY_MS old) it recomputes the same counts it had reported.
   */
  private restore(): void {
    if (!this.stateFile) return;
    let saved: SavedState;
    try {
      saved = JSON.parse(fs.readFileSync(this.stateFile, 'utf8')) as SavedState;
    } catch {
      return; // first start, or an unreadable file: a PLC that was just installed
    }
    if (saved.version !== 1) return;
    this.random.state = saved.random;
    this.simNow = saved.simNow;
    this.realNow = saved.realNow;
    this.status = saved.status;
    this.idleReason = saved.idleReason;
    this.stateEndsAt = saved.stateEndsAt ?? Infinity;
    this.speed = saved.speed;
    this.partialParts = saved.partialParts;
    Object.assign(this.counters, saved.counters);
    this.alarm = saved.alarm;
    this.setpoints.splice(0, this.setpoints.length, ...saved.setpoints);
    this.nextOperationAt = saved.nextOperationAt;
    this.nextResetAt = saved.nextResetAt ?? Infinity;
  }

  private save(now: number): void {
    if (!this.stateFile) return;
    this.savedAt = now;
    const state: SavedState = {
      version: 1,
      random: this.random.state,
      simNow: this.simNow,
      realNow: this.realNow,
      status: this.status,
      idleReason: this.idleReason,
      // JSON has no Infinity: null stands for "never".
      stateEndsAt: Number.isFinite(this.stateEndsAt) ? this.stateEndsAt : null,
      speed: this.speed,
      partialParts: this.partialParts,
      counters: { ...this.counters },
      alarm: this.alarm && { ...this.alarm },
      setpoints: [...this.setpoints],
      nextOperationAt: this.nextOperationAt,
      nextResetAt: Number.isFinite(this.nextResetAt) ? this.nextResetAt : null,
    };
    try {
      fs.mkdirSync(path.dirname(this.stateFile), { recursive: true });
      const tmp = `${this.stateFile}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(state));
      fs.renameSync(tmp, this.stateFile);
    } catch (error) {
      console.warn(`simulated PLC ${this.sn}: state not saved: ${(error as Error).message}`);
    }
  }

  private advance(now: number): void {
    const realStart = this.realNow!;
    const simStart = this.simNow;
    const end = simStart + (now - realStart) * this.options.timeScale;
    const realAt = (sim: number) =>
      Math.round(realStart + (sim - simStart) / this.options.timeScale);
    while (this.simNow < end) {
      const next = Math.min(end, this.stateEndsAt, this.nextOperationAt, this.nextResetAt);
      if (this.status === MACHINE_STATE.running) this.produce(next - this.simNow);
      this.simNow = next;
      if (next === this.stateEndsAt)
        this.enter(this.status === MACHINE_STATE.running ? this.stopKind() : MACHINE_STATE.running);
      if (next === this.nextOperationAt) this.operate(realAt(next));
      if (next === this.nextResetAt) this.reboot();
    }
  }

  private produce(ms: number): void {
    this.partialParts += (this.options.ppmTarget * this.speed * ms) / MINUTE;
    const parts = Math.floor(this.partialParts);
    this.partialParts -= parts;
    for (let i = 0; i < parts; i++) {
      this.counters.produced++;
      if (this.random.next() < this.ngRate) {
        this.counters.ng++;
      } else {
        this.counters.ok++;
        if (this.random.next() < this.firstPassRate) this.counters.firstPassOk++;
      }
    }
  }

  private stopKind(): MachineState {
    const { faultRate, maintenance } = this.options;
    if (maintenance) return MACHINE_STATE.fault;
    return this.random.next() * (faultRate + IDLE_RATE) < faultRate
      ? MACHINE_STATE.fault
      : MACHINE_STATE.idle;
  }

  private enter(status: MachineState): void {
    this.status = status;
    this.idleReason = undefined;
    if (this.alarm) this.alarm.active = false;
    switch (status) {
      case MACHINE_STATE.running:
        this.speed = this.between(0.85, 1.15);
        this.stateEndsAt = this.options.maintenance
          ? this.simNow + this.options.maintenance.runMinutes * MINUTE
          : this.afterExponential(this.options.faultRate + IDLE_RATE);
        break;
      case MACHINE_STATE.idle:
        this.idleReason = this.random.next() < 0.5 ? 'upstream' : 'downstream';
        this.stateEndsAt = this.simNow + this.between(1, 5) * MINUTE;
        break;
      case MACHINE_STATE.fault:
        if (this.options.maintenance) {
          this.alarm = { code: this.options.maintenance.alarm, active: true };
          this.stateEndsAt = this.simNow + this.options.maintenance.faultMinutes * MINUTE;
          break;
        }
        this.alarm = {
          code: ALARMS[Math.floor(this.random.next() * ALARMS.length)]!,
          active: true,
        };
        this.stateEndsAt = this.simNow + this.between(2, 8) * MINUTE;
        break;
    }
  }

  private operate(ts: number): void {
    const index = Math.floor(this.random.next() * SETPOINTS.length);
    const setpoint = SETPOINTS[index]!;
    const direction = this.random.next() < 0.5 ? -1 : 1;
    const value = Math.min(
      setpoint.max,
      Math.max(setpoint.min, this.setpoints[index]! + direction * setpoint.step),
    );
    this.setpoints[index] = value;
    this.events.push({
      type: 'operation',
      sn: this.sn,
      ts,
      comment: `修改${setpoint.name}`,
      setValue: String(value),
      user: OPERATORS[Math.floor(this.random.next() * OPERATORS.length)]!,
    });
    this.nextOperationAt = this.simNow + this.between(10, 20) * MINUTE;
  }

  private reboot(): void {
    this.counters.produced = this.counters.ok = this.counters.ng = this.counters.firstPassOk = 0;
    this.partialParts = 0;
    this.nextResetAt = this.afterExponential(this.options.resetRate / 60);
  }

  private between(low: number, high: number): number {
    return low + this.random.next() * (high - low);
  }

  /** Simulated time of the next event of a Poisson process with `perMinute` rate. */
  private afterExponential(perMinute: number): number {
    if (perMinute <= 0) return Infinity;
    return this.simNow + (-Math.log(1 - this.random.next()) / perMinute) * MINUTE;
  }
}

/** mulberry32, with its state visible so that a restart continues the same sequence. */
class Mulberry32 {
  state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
