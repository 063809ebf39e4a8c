import { emptyFigures, type Figures } from '../foundation/shared/metrics.ts';

/** How long a sum is kept at most, when a notice of another instance's late replay was lost. */
const MAX_AGE_MS = 60_000;
/** Beyond this many sums the cache starts again (≈ 200 bytes each). */
const LIMIT = 20_000;

/**
 * The part of a statistics range a page reads that may be kept: its key (the same parts, the same
 * key), and whether it ends before today began (only then is it kept).
 */
export interface PastRun {
  key: string;
  past: boolean;
}

interface Entry {
  figures: Readonly<Figures>;
  at: number;
}

/**
 * Each machine's sums over the parts of a statistics range that lie before today (its whole days,
 * and the hours and minutes of a partial first day), kept so that a page asked again reads no
 * rollup of them: a past day only changes when a flush writes one of its minutes
 * late (`forget`: this instance's LiveState.onPastDayWritten, or another's, announced as
 * db/notices.ts `past_days_written`; `forgetAll` when such notices may have been lost) or its
 * machine is deleted and made again (the device registry's version). A sum read while any of
 * these happened is not kept.
 */
export class PastSums {
  /** By SN, then by run (PastRun.key). */
  #bySn = new Map<string, Map<string, Entry>>();
  #size = 0;
  /** Bumped by every forget and clear: a read that spans one keeps nothing. */
  #generation = 0;
  #registryVersion: number;

  constructor(
    private readonly registryVersion: () => number,
    private readonly maxAgeMs = MAX_AGE_MS,
  ) {
    this.#registryVersion = registryVersion();
  }

  /**
   * The sums of `past` for each of `sns`: kept ones, and `load` for the rest (a machine `load`
   * leaves out has no rollup: empty figures). Only runs wholly before today are kept.
   */
  async read(
    sns: readonly string[],
    past: PastRun,
    load: (sns: string[]) => Promise<Map<string, Figures>>,
    now: number,
  ): Promise<Map<string, Readonly<Figures>>> {
    if (this.registryVersion() !== this.#registryVersion) this.forgetAll();
    const run = past.key;
    const out = new Map<string, Readonly<Figures>>();
    const missing: string[] = [];
    for (const sn of sns) {
      const entry = this.#bySn.get(sn)?.get(run);
      if (entry && now - entry.at < this.maxAgeMs) out.set(sn, entry.figures);
      else missing.push(sn);
    }
    if (missing.length === 0) return out;
    const generation = this.#generation;
    const version = this.#registryVersion;
    const loaded = await load(missing);
    const keep = past.past && generation === this.#generation && version === this.registryVersion();
    for (const sn of missing) {
      const figures = loaded.get(sn) ?? emptyFigures();
      out.set(sn, figures);
      if (keep) this.#keep(sn, run, { figures, at: now });
    }
    return out;
  }

  /** A past day of this machine was written: its sums are stale. */
  forget(sn: string) {
    this.#generation++;
    const runs = this.#bySn.get(sn);
    if (!runs) return;
    this.#size -= runs.size;
    this.#bySn.delete(sn);
  }

  #keep(sn: string, run: string, entry: Entry) {
    if (this.#size >= LIMIT) this.forgetAll();
    let runs = this.#bySn.get(sn);
    if (!runs) {
      runs = new Map();
      this.#bySn.set(sn, runs);
    }
    if (!runs.has(run)) this.#size++;
    runs.set(run, entry);
  }

  /** Any machine's past days may have been written. */
  forgetAll() {
    this.#generation++;
    this.#bySn.clear();
    this.#size = 0;
    this.#registryVersion = this.registryVersion();
  }
}
