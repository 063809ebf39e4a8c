import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import type { DeviceInfo } from '../devices/device-registry.ts';
import type { Notice, Notifications } from '../notifications/service.ts';
import { derive } from '../shared/metrics.ts';
import type { MachineSnapshot } from '../telemetry/reading-effects.ts';
import type { AlertsRepository, HourFigures, Subscriber } from './repository.ts';

export interface EngineDeps {
  db: Db;
  repo: AlertsRepository;
  notifications: Notifications;
  deviceOf: (sn: string) => DeviceInfo | undefined;
  alarmDescription: (code: string) => string | null;
  caseIdOf: (code: string) => Promise<number | null>;
  log: Pick<FastifyBaseLogger, 'error'>;
}

/** Fewer observed minutes than this in the hour: too little to judge the three parameters. */
const MIN_OBSERVED_MS = 30 * 60_000;
const HOUR_MS = 3_600_000;
/** A machine's stop subscribers are looked up again at most this often while it stays stopped. */
const STOP_LOOKUP_MS = 15_000;

const nameOf = (sn: string, device: DeviceInfo | undefined) =>
  device ? `${device.nickSnCode || sn} ${device.deviceName}` : sn;

const minutesText = (ms: number) => {
  const minutes = Math.floor(ms / 60_000);
  return minutes >= 60 ? `${Math.floor(minutes / 60)}小时${minutes % 60}分钟` : `${minutes}分钟`;
};

/**
 * The alert rules on the live telemetry stream (issue 9). A message is one per (user, rule,
 * machine, episode): the dedupe key names the episode by the reading time that began it (an
 * alarm's first active reading, a stop's first non-running one, a shortfall's first failing
 * check), so a reading replayed by a gateway, a second server or a restart writes nothing new.
 *
 * Alarms and stops are judged on each reading as the live state takes it (reading time, not the
 * clock); the three parameters over the last hour by `checkShortfalls`, a job every minute.
 */
export class AlertEngine {
  /** Active alarm codes per machine as last judged. */
  readonly #alarms = new Map<string, Set<string>>();
  /** Since when each stopped machine has been stopped, and what its subscribers still wait for. */
  readonly #stops = new Map<
    string,
    { since: number; lookedUpAt: number; subscribers: Subscriber[]; told: Set<number> }
  >();
  /** One evaluation at a time per machine, in reading order. */
  readonly #queues = new Map<string, Promise<void>>();

  constructor(private readonly deps: EngineDeps) {}

  /** What the live state held at start is not news: alarms already active raise nothing. */
  prime(snapshots: Iterable<[string, MachineSnapshot | undefined]>) {
    for (const [sn, snapshot] of snapshots)
      if (snapshot) this.#alarms.set(sn, new Set(snapshot.activeAlarms));
  }

  /** Takes a machine's new snapshot (the live state's change listener). */
  observe(sn: string, snapshot: MachineSnapshot | undefined) {
    if (!snapshot) return;
    // The hot path (ingest calls this for every reading): a running machine with no new alarm
    // and no stop to close is nothing to judge.
    const known = this.#alarms.get(sn);
    const newAlarm = snapshot.activeAlarms.some((code) => !known?.has(code));
    if (!newAlarm && snapshot.status === 2 && !this.#stops.has(sn)) {
      if (known && known.size !== snapshot.activeAlarms.length)
        this.#alarms.set(sn, new Set(snapshot.activeAlarms));
      return;
    }
    const previous = this.#queues.get(sn) ?? Promise.resolve();
    const next = previous
      .then(() => this.#evaluate(sn, snapshot))
      .catch((error: unknown) => this.deps.log.error({ err: error, sn }, 'alert rule failed'))
      .finally(() => {
        if (this.#queues.get(sn) === next) this.#queues.delete(sn);
      });
    this.#queues.set(sn, next);
  }

  /** Resolves when every reading seen so far has been judged (tests, shutdown). */
  async idle() {
    while (this.#queues.size > 0) await Promise.all([...this.#queues.values()]);
  }

  async #evaluate(sn: string, s: MachineSnapshot) {
    const known = this.#alarms.get(sn) ?? new Set<string>();
    const raised = s.activeAlarms.filter((code) => !known.has(code));
    this.#alarms.set(sn, new Set(s.activeAlarms));
    for (const code of raised) await this.#alarm(sn, code, s.ts);
    await this.#stop(sn, s);
  }

  async #alarm(sn: string, code: string, ts: number) {
    const users = await this.deps.repo.subscribers(sn, 'alarm');
    if (users.length === 0) return;
    const device = this.deps.deviceOf(sn);
    const description = this.deps.alarmDescription(code);
    const caseId = await this.deps.caseIdOf(code);
    await this.#notify(
      users.map((u) => ({
        userId: u.userId,
        kind: 'alarm',
        title: `${nameOf(sn, device)} 报警`,
        body: `SN：${sn}，设备：${device?.deviceName ?? ''}，报警：${code}${description ? ` ${description}` : ''}`,
        link: caseId === null ? null : `/faultAlarm?casesId=${caseId}`,
        dedupeKey: `alarm:${sn}:${code}:${ts}`,
        alarm: { snCode: sn, warningContent: description ? `${code} ${description}` : code },
      })),
    );
  }

  async #stop(sn: string, s: MachineSnapshot) {
    if (s.status === 2) {
      this.#stops.delete(sn);
      return;
    }
    let stop = this.#stops.get(sn);
    if (!stop) {
      // After a restart the stop may have begun before this process saw it.
      const since = (await this.deps.repo.stoppedSince(sn)) ?? s.ts;
      stop = {
        since: Math.min(since, s.ts),
        lookedUpAt: -Infinity,
        subscribers: [],
        told: new Set(),
      };
      this.#stops.set(sn, stop);
    }
    // Subscriptions change rarely; a stopped machine reports every few seconds.
    if (s.ts - stop.lookedUpAt >= STOP_LOOKUP_MS) {
      stop.lookedUpAt = s.ts;
      stop.subscribers = await this.deps.repo.subscribers(sn, 'realTimeReminder');
    }
    const elapsed = s.ts - stop.since;
    const told = stop.told;
    const users = stop.subscribers.filter(
      (u) => u.timeLength > 0 && elapsed > u.timeLength && !told.has(u.userId),
    );
    if (users.length === 0) return;
    for (const u of users) told.add(u.userId);
    const device = this.deps.deviceOf(sn);
    const state = s.status === 3 ? '故障' : '待机';
    await this.#notify(
      users.map((u) => ({
        userId: u.userId,
        kind: 'realTimeReminder',
        title: `${nameOf(sn, device)} 停机提醒`,
        body: `SN：${sn} 已${state}停机超过${minutesText(u.timeLength)}`,
        link: `/currentDataReport?snCode=${encodeURIComponent(sn)}`,
        dedupeKey: `realTimeReminder:${sn}:${stop.since}`,
      })),
    );
  }

  /**
   * The three parameters of the hour before `now` (whole minutes) against each machine's targets:
   * a machine below target opens an episode (alert_episodes) and tells its subscribers once; one
   * back on target closes it. Runs as a job, once per minute across instances.
   */
  async checkShortfalls(now: number) {
    const to = now - (now % 60_000);
    const hour = await this.deps.repo.watchedFigures(new Date(to - HOUR_MS), new Date(to));
    for (const m of hour) {
      const f = m.figures;
      if (f.runningMs + f.idleMs + f.faultMs < MIN_OBSERVED_MS) continue;
      const misses = shortfalls(m);
      // Read before the transaction: the embedded database has one connection, held by it.
      const users = misses.length ? await this.deps.repo.subscribers(m.sn, 'threeParameters') : [];
      await this.deps.db.transaction().execute(async (tx) => {
        if (misses.length === 0) {
          await tx
            .deleteFrom('alert_episodes')
            .where('sn_code', '=', m.sn)
            .where('rule', '=', 'threeParameters')
            .execute();
          return;
        }
        const opened = await tx
          .insertInto('alert_episodes')
          .values({ sn_code: m.sn, rule: 'threeParameters', started_at: new Date(to) })
          .onConflict((oc) => oc.columns(['sn_code', 'rule']).doNothing())
          .returning('started_at')
          .executeTakeFirst();
        if (!opened) return;
        await this.deps.notifications.notify(
          tx,
          users.map((u) => ({
            userId: u.userId,
            kind: 'threeParameters',
            title: `${nameOf(m.sn, this.deps.deviceOf(m.sn))} 三参数未达标`,
            body: `SN：${m.sn} 近一小时 ${misses.join('，')}`,
            link: `/currentDataReport?snCode=${encodeURIComponent(m.sn)}`,
            dedupeKey: `threeParameters:${m.sn}:${to}`,
          })),
        );
      });
    }
  }

  async #notify(notices: Notice[]) {
    await this.deps.db.transaction().execute((tx) => this.deps.notifications.notify(tx, notices));
  }
}

/** Which of PPM, yield and utilisation are below target ("—", no data, is never a miss). */
export const shortfalls = (
  m: Pick<HourFigures, 'figures' | 'ppmTarget' | 'yieldTarget' | 'useRateTarget'>,
) => {
  const d = derive(m.figures);
  const misses: string[] = [];
  if (d.ppm !== null && m.ppmTarget > 0 && d.ppm < m.ppmTarget)
    misses.push(`PPM ${d.ppm} 低于目标 ${m.ppmTarget}`);
  if (d.yield !== null && m.yieldTarget > 0 && d.yield < m.yieldTarget)
    misses.push(`良率 ${d.yield}% 低于目标 ${m.yieldTarget}%`);
  if (d.useRate !== null && m.useRateTarget > 0 && d.useRate < m.useRateTarget)
    misses.push(`稼动率 ${d.useRate}% 低于目标 ${m.useRateTarget}%`);
  return misses;
};
