import fs from 'node:fs';
import path from 'node:path';

/*
 * Durable FIFO of a gateway's unacknowledged messages, plus its sequence counter.
 *
 * On disk: append-only segment files `seg-<firstSeq>.jsonl` (one message per line) and `meta.json`
 * ({ floor, lastSeq, dropped, confirmed }), where every seq <= floor is acknowledged or dropped. Trimming never
 * rewrites a file: it raises the floor and deletes segments that lie wholly below it; lines below
 * the floor are skipped on load. Bounded: past `maxMessages`, or older than `maxAgeMs` (each line
 * says when it was buffered), the oldest are dropped the same way and counted in `dropped`.
 *
 * Durability: each append is a synchronous write(2), so it is in the OS page cache and survives a
 * killed process; fdatasync runs once a second, so a power cut can lose the last second. meta.json is replaced atomically and written synchronously before any segment is deleted,
 * so lastSeq can never go backwards, which would make the server take new messages for duplicates.
 */

export type BufferedKind = 'telemetry' | 'events';

export interface BufferedMessage {
  readonly seq: number;
  readonly kind: BufferedKind;
  /** The serialised message exactly as it is published. */
  readonly payload: string;
  /** When it was buffered (the agent's clock); the age bound drops by it. */
  readonly at: number;
}

interface OfflineBufferOptions {
  maxMessages: number;
  /** Unacknowledged messages older than this are dropped (oldest first). */
  maxAgeMs?: number;
  /** The agent's clock (a test's simulated one). */
  now?: () => number;
  messagesPerSegment?: number;
  onDrop?: (droppedTotal: number, reason: 'size' | 'age') => void;
}

interface Meta {
  floor: number;
  lastSeq: number;
  dropped: number;
  /**
   * Whether the server has answered this counter. A new directory's counter starts at 1 knowing
   * nothing of an earlier life of the gateway (a wiped disk, a reinstall): its messages are not
   * sent until the server says what it has taken (confirmCounter). A meta.json written before
   * this field existed belongs to a counter that has been running: confirmed.
   */
  confirmed: boolean;
}

interface Segment {
  file: string;
  firstSeq: number;
  lastSeq: number;
}

const SYNC_INTERVAL_MS = 1000;
const META = 'meta.json';
const LOCK = 'lock';
const SEGMENT = /^seg-(\d+)\.jsonl$/;

export class BufferDirInUseError extends Error {}

export class OfflineBuffer {
  private messages: BufferedMessage[] = [];
  /** Index in `messages` of the oldest live message; the array is compacted lazily. */
  private head = 0;
  private segments: Segment[] = [];
  private fd: number | null = null;
  private unsynced = false;
  private metaDirty = false;
  private readonly timer: NodeJS.Timeout;

  private constructor(
    private readonly dir: string,
    private readonly meta: Meta,
    private readonly options: OfflineBufferOptions,
  ) {
    this.timer = setInterval(() => this.sync(), SYNC_INTERVAL_MS);
    this.timer.unref();
  }

  static open(dir: string, options: OfflineBufferOptions): OfflineBuffer {
    fs.mkdirSync(dir, { recursive: true });
    lockDir(dir);
    const buffer = new OfflineBuffer(dir, readMeta(dir), options);
    buffer.load();
    return buffer;
  }

  get size(): number {
    return this.messages.length - this.head;
  }

  get nextSeq(): number {
    return this.meta.lastSeq + 1;
  }

  /** Seq of the oldest buffered message, or undefined when everything is acknowledged. */
  get oldestSeq(): number | undefined {
    return this.messages[this.head]?.seq;
  }

  get dropped(): number {
    return this.meta.dropped;
  }

  /** The oldest buffered message with a seq >= `seq`. */
  nextFrom(seq: number): BufferedMessage | undefined {
    let low = this.head;
    let high = this.messages.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.messages[mid]!.seq < seq) low = mid + 1;
      else high = mid;
    }
    return this.messages[low];
  }

  append(message: BufferedMessage): void {
    if (message.seq !== this.nextSeq) {
      throw new Error(`buffer: expected seq ${this.nextSeq}, got ${message.seq}`);
    }
    const current = this.segments.at(-1);
    if (
      this.fd === null ||
      !current ||
      current.lastSeq - current.firstSeq + 1 >= this.segmentSize
    ) {
      this.startSegment(message.seq);
    }
    fs.writeSync(
      this.fd!,
      `{"seq":${message.seq},"kind":"${message.kind}","at":${message.at},"message":${message.payload}}\n`,
    );
    this.segments.at(-1)!.lastSeq = message.seq;
    this.unsynced = true;
    this.messages.push(message);
    this.meta.lastSeq = message.seq;
    this.metaDirty = true;
    this.enforceBounds();
  }

  /**
   * Drops what is over the bounds, oldest first: messages older than maxAgeMs, then as many as
   * exceed maxMessages. Runs on every append; the agent also calls it while nothing is appended.
   */
  enforceBounds(): void {
    const { maxAgeMs, now = Date.now } = this.options;
    if (maxAgeMs !== undefined) {
      const oldest = now() - maxAgeMs;
      let stale = 0;
      while (
        this.head + stale < this.messages.length &&
        this.messages[this.head + stale]!.at < oldest
      )
        stale++;
      if (stale > 0) this.drop(stale, 'age');
    }
    const excess = this.size - this.options.maxMessages;
    if (excess > 0) this.drop(excess, 'size');
  }

  get lastSeq(): number {
    return this.meta.lastSeq;
  }

  /**
   * Everything <= seq is acknowledged. An ack beyond our own last seq covers nothing we hold: it
   * is about messages of an earlier counter (renumberAbove).
   */
  ack(seq: number): void {
    if (seq <= this.meta.floor || seq > this.meta.lastSeq) return;
    this.raiseFloor(seq);
  }

  /**
   * Our counter was lost (buffer dir wiped) while the server has taken seqs up to `seq`: what we
   * hold is numbered again from `seq + 1`, in order, payloads included, so the server takes it
   * instead of discarding it as duplicates. The new segment is on disk before the meta moves
   * the floor over the old ones; a crash in between resends the old copies, which are renumbered
   * again (their readings arrive twice; counters are totals, so that adds no parts).
   */
  renumberAbove(seq: number): void {
    if (seq <= this.meta.lastSeq) return;
    this.renumberFrom(seq);
  }

  /** Whether the server has told this counter where it stands (see Meta.confirmed). */
  get counterConfirmed(): boolean {
    return this.meta.confirmed;
  }

  /**
   * The server's first answer to a counter of unknown history: it has taken seqs up to `taken`
   * from this gateway. Nothing held has been sent yet, so all of it is numbered from `taken + 1`
   * (docs/protocol.md, "A counter that starts again"), however many it holds. `taken` 0: a gateway
   * the server has never heard from, nothing to change.
   */
  confirmCounter(taken: number): void {
    if (this.meta.confirmed) return;
    this.meta.confirmed = true;
    if (taken > 0) this.renumberFrom(taken);
    else this.writeMeta();
  }

  private renumberFrom(seq: number): void {
    const held = this.messages.slice(this.head);
    const old = this.segments;
    this.closeSegment();
    this.segments = [];
    this.messages = [];
    this.head = 0;
    this.meta.lastSeq = seq;
    for (const message of held) {
      const renumbered = this.nextSeq;
      const payload = JSON.stringify({
        ...(JSON.parse(message.payload) as object),
        seq: renumbered,
      });
      this.append({ ...message, seq: renumbered, payload });
    }
    if (this.fd !== null) fs.fdatasyncSync(this.fd);
    this.unsynced = false;
    this.meta.floor = seq;
    this.writeMeta();
    // Numbered from below the old counter (confirmCounter), a new segment can take an old one's
    // name: that file is the new one now.
    const current = new Set(this.segments.map((segment) => segment.file));
    for (const segment of old)
      if (!current.has(segment.file)) fs.rmSync(path.join(this.dir, segment.file), { force: true });
  }

  /** Flushes data and meta to disk and releases the directory. */
  close(): void {
    clearInterval(this.timer);
    this.sync();
    this.closeSegment();
    unlockDir(this.dir);
  }

  private get segmentSize(): number {
    return this.options.messagesPerSegment ?? 1000;
  }

  private drop(count: number, reason: 'size' | 'age'): void {
    this.meta.dropped += count;
    this.raiseFloor(this.messages[this.head + count - 1]!.seq);
    this.options.onDrop?.(this.meta.dropped, reason);
  }

  private raiseFloor(floor: number): void {
    this.meta.floor = floor;
    this.metaDirty = true;
    while (this.head < this.messages.length && this.messages[this.head]!.seq <= floor) this.head++;
    if (this.head > 1024 && this.head * 2 > this.messages.length) {
      this.messages = this.messages.slice(this.head);
      this.head = 0;
    }
    const obsolete = this.segments.filter((s) => s.lastSeq <= floor);
    if (obsolete.length === 0) return;
    this.writeMeta();
    if (obsolete.includes(this.segments.at(-1)!)) this.closeSegment();
    for (const segment of obsolete) fs.rmSync(path.join(this.dir, segment.file), { force: true });
    this.segments = this.segments.filter((s) => s.lastSeq > floor);
  }

  private startSegment(firstSeq: number): void {
    this.closeSegment();
    const file = `seg-${String(firstSeq).padStart(16, '0')}.jsonl`;
    // 'w': a file of that name can only hold a torn line from before a crash.
    this.fd = fs.openSync(path.join(this.dir, file), 'w');
    this.segments.push({ file, firstSeq, lastSeq: firstSeq - 1 });
  }

  private closeSegment(): void {
    if (this.fd === null) return;
    fs.fdatasyncSync(this.fd);
    fs.closeSync(this.fd);
    this.fd = null;
    this.unsynced = false;
  }

  private sync(): void {
    if (this.unsynced && this.fd !== null) fs.fdatasyncSync(this.fd);
    this.unsynced = false;
    if (this.metaDirty) this.writeMeta();
  }

  private writeMeta(): void {
    const file = path.join(this.dir, META);
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(this.meta));
    fs.renameSync(`${file}.tmp`, file);
    this.metaDirty = false;
  }

  private load(): void {
    const loadedAt = (this.options.now ?? Date.now)();
    const files = fs
      .readdirSync(this.dir)
      .flatMap((file) => {
        const match = SEGMENT.exec(file);
        return match ? [{ file, firstSeq: Number(match[1]) }] : [];
      })
      .sort((a, b) => a.firstSeq - b.firstSeq);
    let last = this.meta.floor;
    for (const { file, firstSeq } of files) {
      const segment: Segment = { file, firstSeq, lastSeq: firstSeq - 1 };
      for (const line of fs.readFileSync(path.join(this.dir, file), 'utf8').split('\n')) {
        const message = parseLine(line, loadedAt);
        // Torn lines (a killed write) and anything not newer than what we hold are skipped.
        if (!message || message.seq <= last) continue;
        segment.lastSeq = message.seq;
        last = message.seq;
        this.messages.push(message);
      }
      if (segment.lastSeq >= firstSeq) this.segments.push(segment);
      else fs.rmSync(path.join(this.dir, file));
    }
    this.meta.lastSeq = Math.max(this.meta.lastSeq, last);
    this.raiseFloor(this.meta.floor);
    this.enforceBounds();
  }
}

function parseLine(line: string, loadedAt: number): BufferedMessage | null {
  if (line === '') return null;
  try {
    const record = JSON.parse(line) as {
      seq?: unknown;
      kind?: unknown;
      at?: unknown;
      message?: unknown;
    };
    if (
      typeof record.seq !== 'number' ||
      (record.kind !== 'telemetry' && record.kind !== 'events')
    ) {
      return null;
    }
    return {
      seq: record.seq,
      kind: record.kind,
      payload: JSON.stringify(record.message),
      // A line from before the age bound existed: as old as the oldest it could be, now.
      at: typeof record.at === 'number' ? record.at : loadedAt,
    };
  } catch {
    return null;
  }
}

function readMeta(dir: string): Meta {
  try {
    const meta = JSON.parse(fs.readFileSync(path.join(dir, META), 'utf8')) as Partial<Meta>;
    return {
      floor: meta.floor ?? 0,
      lastSeq: meta.lastSeq ?? 0,
      dropped: meta.dropped ?? 0,
      confirmed: meta.confirmed ?? true,
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return { floor: 0, lastSeq: 0, dropped: 0, confirmed: false };
  }
}

/**
 * Lock files this process holds. One naming our own pid that is not in here was left by an
 * earlier run that had the same pid: a container restarted after kill -9 starts the agent with
 * the same pid every time.
 */
const heldLocks = new Set<string>();

/**
 * Two writers on one directory would interleave seqs. The lock file is created exclusively and
 * names its owner; one left by a dead process (or an earlier run with our pid) is stale.
 */
function lockDir(dir: string): void {
  const file = path.resolve(dir, LOCK);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      heldLocks.add(file);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(fs.readFileSync(file, 'utf8'));
    const live = holder === process.pid ? heldLocks.has(file) : isAlive(holder);
    if (live) throw new BufferDirInUseError(`buffer dir ${dir} is in use by process ${holder}`);
    fs.rmSync(file, { force: true });
  }
  throw new BufferDirInUseError(`could not lock buffer dir ${dir}`);
}

function unlockDir(dir: string): void {
  const file = path.resolve(dir, LOCK);
  heldLocks.delete(file);
  fs.rmSync(file, { force: true });
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
