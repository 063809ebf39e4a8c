import { deriveFigures } from '@linewatch/contracts/rules/figures';
import { deviceStatusLabels, MACHINE_STATE } from '@linewatch/contracts/rules/machine-states';
import type { Db } from '../foundation/db/database.ts';
import type { DeviceInfo } from '../core/machine.ts';
import type { Notice } from '../notifications/notice.ts';
import type { Notifications } from '../notifications/service.ts';
import type { MachineSnapshot } from '../core/reading-effects.ts';
import { stopKey, type AlertsRepository, type HourFigures } from './repository.ts';

export interface EngineDeps {
  db: Db;
  repo: AlertsRepository;
  notifications: Notifications;
  deviceOf: (sn: string) => DeviceInfo | undefined;
  alarmDescription: (code: string) => string | null;
  /** Troubleshooting case per alarm code, read in the given transaction. */
  caseIds: (executor: Db) => Promise<ReadonlyMap<string, number>>;
}

/** What an ingest flush writes that the alarm and stop rules judge (telemetry's Batch). */
export interface FlushedReadings {
  alarmEdges: readonly { sn: string; code: string; ts: number; active: boolean }[];
  statusChanges: readonly { sn: string; ts: number; status: number }[];
  snapshots: ReadonlyMap<string, MachineSnapshot>;
}

/** Fewer observed minutes than this in the hour: too little to judge the three parameters. */
const MIN_OBSERVED_MS = 30 * 60_000;
const HOUR_MS = 3_600_000;

const nameOf = (sn: string, device: DeviceInfo | undefined) =>
  device ? `${device.nickSnCode || sn} ${device.deviceName}` : sn;

/** The machine as people call it, for a template's 20-character field. */
const machineOf = (sn: string, device: DeviceInfo | undefined) =>
  device?.deviceName || device?.nickSnCode || sn;

const minutesText = (ms: number) => {
  const minutes = Math.floor(ms / 60_000);
  return minutes >= 60 ? `${Math.floor(minutes / 60)}小时${minutes % 60}分钟` : `${minutes}分钟`;
};

/**
 * The alert rules (issue 9). A message is one per (user, rule, machine, episode): the dedupe key
 * names the episode by the reading time that began it (an alarm's raising reading, a stop's first
 * non-running status change, a shortfall's first failing check), so a reading replayed by a
 * gateway, a second server or a restart writes nothing new.
 *
 * Alarms and stops are judged in ingest's flush transaction (`judgeFlush`, a flush hook) from what
 * the flush writes, by reading time: a message commits with the readings that caused it, so a
 * crash loses neither alone, and the engine keeps no state of its own that a restart could lose.
 * The three parameters over the last hour are judged by `checkShortfalls`, a job every minute.
 */
export class AlertEngine {
  constructor(private readonly deps: EngineDeps) {}

  /** Writes, in the flush's transaction `tx`, the messages the flushed readings cause. */
  async judgeFlush(tx: Db, batch: FlushedReadings) {
    const raised = batch.alarmEdges.filter((e) => e.active);
    const moments = [
      ...[...batch.snapshots]
        .filter(([, s]) => s.status !== MACHINE_STATE.running)
        .map(([sn, s]) => ({ sn, at: s.ts })),
      // A stop that ended within the batch is judged at its end: a replayed buffer may hold all of it.
      ...batch.statusChanges
        .filter((c) => c.status === MACHINE_STATE.running)
        .map((c) => ({ sn: c.sn, at: c.ts })),
    ];
    const notices = [...(await this.#alarms(tx, raised)), ...(await this.#stops(tx, moments))];
    await this.deps.notifications.notify(tx, notices);
  }

  async #alarms(tx: Db, raised: FlushedReadings['alarmEdges']): Promise<Notice[]> {
    if (raised.length === 0) return [];
    const users = await this.deps.repo.subscribers(
      tx,
      [...new Set(raised.map((e) => e.sn))],
      'alarm',
    );
    if (users.length === 0) return [];
    const caseIds = await this.deps.caseIds(tx);
    return raised.flatMap(({ sn, code, ts }) => {
      const device = this.deps.deviceOf(sn);
      const description = this.deps.alarmDescription(code);
      const caseId = caseIds.get(code);
      return users
        .filter((u) => u.sn === sn)
        .map((u) => ({
          userId: u.userId,
          kind: 'alarm',
          title: `${nameOf(sn, device)} 报警`,
          body: `SN：${sn}，设备：${device?.deviceName ?? ''}，报警：${code}${description ? ` ${description}` : ''}`,
          link: caseId === undefined ? null : `/faultAlarm?casesId=${caseId}`,
          dedupeKey: `alarm:${sn}:${code}:${ts}`,
          alarm: { snCode: sn, warningContent: description ? `${code} ${description}` : code },
          fields: {
            sn,
            machine: machineOf(sn, device),
            content: description ? `${code} ${description}` : code,
          },
        }));
    });
  }

  async #stops(tx: Db, moments: { sn: string; at: number }[]): Promise<Notice[]> {
    const overdue = await this.deps.repo.overdueStops(tx, moments);
    return overdue.map(({ sn, since, status, userId, timeLength }) => {
      const device = this.deps.deviceOf(sn);
      // A stop is a fault (故障) or idle (待机).
      const stop = deviceStatusLabels[status === MACHINE_STATE.fault ? 'error' : 'standBy'];
      return {
        userId,
        kind: 'realTimeReminder',
        title: `${nameOf(sn, device)} 停机提醒`,
        body: `SN：${sn} 已${stop}停机超过${minutesText(timeLength)}`,
        link: `/currentDataReport?snCode=${encodeURIComponent(sn)}`,
        dedupeKey: stopKey(sn, since),
        fields: {
          sn,
          machine: machineOf(sn, device),
          content: `${stop}停机超过${minutesText(timeLength)}`,
        },
      };
    });
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
      await this.deps.db.transaction().execute(async (tx) => {
        if (misses.length === 0) {
          await this.deps.repo.closeEpisode(tx, m.sn, 'threeParameters');
          return;
        }
        if (!(await this.deps.repo.openEpisode(tx, m.sn, 'threeParameters', new Date(to)))) return;
        const users = await this.deps.repo.subscribers(tx, [m.sn], 'threeParameters');
        await this.deps.notifications.notify(
          tx,
          users.map((u) => ({
            userId: u.userId,
            kind: 'threeParameters',
            title: `${nameOf(m.sn, this.deps.deviceOf(m.sn))} 三参数未达标`,
            body: `SN：${m.sn} 近一小时 ${misses.join('，')}`,
            link: `/currentDataReport?snCode=${encodeURIComponent(m.sn)}`,
            dedupeKey: `threeParameters:${m.sn}:${to}`,
            fields: {
              sn: m.sn,
              machine: machineOf(m.sn, this.deps.deviceOf(m.sn)),
              content: misses.join('，'),
            },
          })),
        );
      });
    }
  }
}

/** Which of PPM, yield and utilisation are below target ("—", no data, is never a miss). */
export const shortfalls = (
  m: Pick<HourFigures, 'figures' | 'ppmTarget' | 'yieldTarget' | 'useRateTarget'>,
) => {
  const d = deriveFigures(m.figures);
  const misses: string[] = [];
  if (d.ppm !== null && m.ppmTarget > 0 && d.ppm < m.ppmTarget)
    misses.push(`PPM ${d.ppm} 低于目标 ${m.ppmTarget}`);
  if (d.yield !== null && m.yieldTarget > 0 && d.yield < m.yieldTarget)
    misses.push(`良率 ${d.yield}% 低于目标 ${m.yieldTarget}%`);
  if (d.useRate !== null && m.useRateTarget > 0 && d.useRate < m.useRateTarget)
    misses.push(`稼动率 ${d.useRate}% 低于目标 ${m.useRateTarget}%`);
  return misses;
};
