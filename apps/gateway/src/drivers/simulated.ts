import type { MachineState, OperationEvent } from '@linewatch/contracts/mqtt';
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
}

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
  private readonly random: () => number;
  private readonly ngRate: number;
  private readonly firstPassRate: number;
  /** Simulated clock (ms since the first read) and the real time it corresponds to. */
  private simNow = 0;
  private realNow: number | null = null;
  private status: MachineState = 2;
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
    this.random = mulberry32(options.seed ?? fnv1a(options.sn));
    this.ngRate = this.between(0.01, 0.03);
    this.firstPassRate = this.between(0.95, 0.99);
    const produced = Math.floor(this.between(0, 100_000));
    this.counters.produced = produced;
    this.counters.ng = Math.round(produced * this.ngRate);
    this.counters.ok = produced - this.counters.ng;
    this.counters.firstPassOk = Math.round(this.counters.ok * this.firstPassRate);
    // Start somewhere in the long-run mix rather than always running.
    const u = this.random();
    if (u < 0.8) this.enter(2);
    else if (u < 0.92) this.enter(1);
    else this.enter(3);
    this.nextOperationAt = this.between(10, 20) * MINUTE;
    this.nextResetAt = this.afterExponential(options.resetRate / 60);
  }

  read(now: number): Promise<DriverReading> {
    if (this.realNow !== null && now > this.realNow) this.advance(now);
    this.realNow = Math.max(now, this.realNow ?? now);
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
    return Promise.resolve();
  }

  private advance(now: number): void {
    const realStart = this.realNow!;
    const simStart = this.simNow;
    const end = simStart + (now - realStart) * this.options.timeScale;
    const realAt = (sim: number) =>
      Math.round(realStart + (sim - simStart) / this.options.timeScale);
    while (this.simNow < end) {
      const next = Math.min(end, this.stateEndsAt, this.nextOperationAt, this.nextResetAt);
      if (this.status === 2) this.produce(next - this.simNow);
      this.simNow = next;
      if (next === this.stateEndsAt) this.enter(this.status === 2 ? this.stopKind() : 2);
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
      if (this.random() < this.ngRate) {
        this.counters.ng++;
      } else {
        this.counters.ok++;
        if (this.random() < this.firstPassRate) this.counters.firstPassOk++;
      }
    }
  }

  private stopKind(): MachineState {
    const { faultRate } = this.options;
    return this.random() * (faultRate + IDLE_RATE) < faultRate ? 3 : 1;
  }

  private enter(status: MachineState): void {
    this.status = status;
    this.idleReason = undefined;
    if (this.alarm) this.alarm.active = false;
    switch (status) {
      case 2:
        this.speed = this.between(0.85, 1.15);
        this.stateEndsAt = this.afterExponential(this.options.faultRate + IDLE_RATE);
        break;
      case 1:
        this.idleReason = this.random() < 0.5 ? 'upstream' : 'downstream';
        this.stateEndsAt = this.simNow + this.between(1, 5) * MINUTE;
        break;
      case 3:
        this.alarm = { code: ALARMS[Math.floor(this.random() * ALARMS.length)]!, active: true };
        this.stateEndsAt = this.simNow + this.between(2, 8) * MINUTE;
        break;
    }
  }

  private operate(ts: number): void {
    const index = Math.floor(this.random() * SETPOINTS.length);
    const setpoint = SETPOINTS[index]!;
    const direction = this.random() < 0.5 ? -1 : 1;
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
      user: OPERATORS[Math.floor(this.random() * OPERATORS.length)]!,
    });
    this.nextOperationAt = this.simNow + this.between(10, 20) * MINUTE;
  }

  private reboot(): void {
    this.counters.produced = this.counters.ok = this.counters.ng = this.counters.firstPassOk = 0;
    this.partialParts = 0;
    this.nextResetAt = this.afterExponential(this.options.resetRate / 60);
  }

  private between(low: number, high: number): number {
    return low + this.random() * (high - low);
  }

  /** Simulated time of the next event of a Poisson process with `perMinute` rate. */
  private afterExponential(perMinute: number): number {
    if (perMinute <= 0) return Infinity;
    return this.simNow + (-Math.log(1 - this.random()) / perMinute) * MINUTE;
  }
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
