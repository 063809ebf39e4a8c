import { OFFLINE_AFTER_MS } from '@linewatch/contracts/limits';
import { deviceStatusOf, type DeviceStatus } from '@linewatch/contracts/rules/machine-states';
import type { DeviceRegistry } from './device-registry.ts';
import type { LiveState } from './live-state.ts';
import type { LineArea } from './map-areas.ts';

/** How many machines are in each live status. */
export type StatusCounts = Record<DeviceStatus, number>;

interface Counted {
  /** The counts of the machine's four areas (world, country, province, city) in its line. */
  areas: StatusCounts[];
  /** Its status as counted at the clock of the counts. */
  status: DeviceStatus;
  /** When it falls silent (its last reading's time + OFFLINE_AFTER_MS); counted online only. */
  expiry: number;
  /**
   * The second whose bucket holds it, at most its expiry's (a sweep that reaches the bucket moves
   * it on if its expiry moved later); null when counted offline.
   */
  bucket: number | null;
}

const SECOND_MS = 1000;

/**
 * Each map area's machines by live status, line by line, kept as statuses change, so the map's
 * summary costs a request its visible lines' areas instead of their machines (docs/architecture.md
 * decision 12). A status is LiveState.statusOf's: the last reading's state, or offline once the
 * machine has been silent over OFFLINE_AFTER_MS — so time alone changes it, and machines counted
 * online wait in buckets by the second they fall silent, moved to offline when a read passes it.
 *
 * The counts are of one instant, the latest a read asked for (the clock); a read for an earlier
 * instant gets null and counts machine by machine. Built at the first read, and again after the
 * device registry reloaded or the live state was loaded.
 */
export class AreaStatus {
  #counted = new Map<string, Counted>();
  #byArea = new Map<LineArea, StatusCounts>();
  #buckets = new Map<number, Set<Counted>>();
  #clock = -Infinity;
  /** Buckets before this second are empty. */
  #sweptTo = -Infinity;
  /** What the counts were built from: the registry's version and the live state's loads. */
  #built: { registry: number; live: number } | null = null;

  constructor(
    private readonly registry: Pick<DeviceRegistry, 'lines' | 'version'>,
    private readonly live: Pick<LiveState, 'snapshot' | 'loads' | 'onChange'>,
  ) {
    live.onChange((sn) => {
      const c = this.#built && this.#counted.get(sn);
      if (c) this.#recount(c, sn);
    });
  }

  /**
   * A line's area's machines by status at `now`; null when `now` is before an instant already
   * counted, or the area is not of the registry's lines as they are now: count one by one.
   */
  of(area: LineArea, now: number): Readonly<StatusCounts> | null {
    if (
      !this.#built ||
      this.#built.registry !== this.registry.version ||
      this.#built.live !== this.live.loads
    )
      this.#build(now);
    if (now < this.#clock) return null;
    this.#sweep(now);
    return this.#byArea.get(area) ?? null;
  }

  #build(now: number) {
    this.#counted.clear();
    this.#byArea.clear();
    this.#buckets.clear();
    this.#clock = now;
    this.#sweptTo = Math.floor(now / SECOND_MS);
    this.#built = { registry: this.registry.version, live: this.live.loads };
    for (const line of this.registry.lines())
      for (const byName of Object.values(line.areas))
        for (const area of byName.values()) {
          const counts: StatusCounts = { running: 0, standBy: 0, error: 0, offLine: 0 };
          this.#byArea.set(area, counts);
          for (const d of area.machines) {
            let c = this.#counted.get(d.sn);
            if (!c) {
              c = { areas: [], status: 'offLine', expiry: 0, bucket: null };
              this.#counted.set(d.sn, c);
            }
            c.areas.push(counts);
          }
        }
    for (const [sn, c] of this.#counted) {
      for (const counts of c.areas) counts.offLine += 1;
      this.#recount(c, sn);
    }
  }

  /**
   * The machine's status at the clock from its last reading, moved between counts. A machine
   * counted online stays in its bucket while its readings only move its expiry later (a sweep
   * moves it on when its bucket comes due): no bucket moves for a reading.
   */
  #recount(c: Counted, sn: string) {
    const snapshot = this.live.snapshot(sn);
    const expiry = snapshot ? snapshot.ts + OFFLINE_AFTER_MS : -Infinity;
    c.expiry = expiry;
    // As statusOf: offline when the clock is past the expiry (more than OFFLINE_AFTER_MS silent).
    if (this.#clock > expiry) {
      this.#move(c, 'offLine');
      this.#rebucket(c, null);
      return;
    }
    this.#move(c, deviceStatusOf(snapshot!.status));
    const second = Math.floor(expiry / SECOND_MS);
    if (c.bucket === null || second < c.bucket) this.#rebucket(c, second);
  }

  #rebucket(c: Counted, second: number | null) {
    if (c.bucket === second) return;
    if (c.bucket !== null) this.#buckets.get(c.bucket)?.delete(c);
    c.bucket = second;
    if (second === null) return;
    let members = this.#buckets.get(second);
    if (!members) this.#buckets.set(second, (members = new Set()));
    members.add(c);
  }

  #move(c: Counted, status: DeviceStatus) {
    if (status === c.status) return;
    for (const counts of c.areas) {
      counts[c.status] -= 1;
      counts[status] += 1;
    }
    c.status = status;
  }

  /** Moves the clock to `now`: the machines silent past their expiry by then go offline. */
  #sweep(now: number) {
    this.#clock = now;
    const second = Math.floor(now / SECOND_MS);
    // Every second since the last sweep, or every bucket when there are fewer (a long quiet).
    if (second - this.#sweptTo <= this.#buckets.size)
      for (let s = this.#sweptTo; s <= second; s++) this.#expire(s, now);
    else for (const s of [...this.#buckets.keys()]) if (s <= second) this.#expire(s, now);
    this.#sweptTo = second;
  }

  #expire(second: number, now: number) {
    const members = this.#buckets.get(second);
    if (!members) return;
    for (const c of members)
      if (now > c.expiry) {
        this.#rebucket(c, null);
        this.#move(c, 'offLine');
      } else this.#rebucket(c, Math.floor(c.expiry / SECOND_MS));
    if (members.size === 0) this.#buckets.delete(second);
  }
}
