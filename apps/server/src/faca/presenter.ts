import { type CaInfo, type FacaInfo, type FaInfo, type Task } from '@linewatch/contracts/faca';
import { CA_STATUS, taskStatusOf } from '@linewatch/contracts/rules/ca-statuses';
import { FACA_STATUS } from '@linewatch/contracts/rules/question-statuses';
import type { Selectable } from 'kysely';
import type { FacaCasTable, FacaFasTable } from '../foundation/db/schema/faca.ts';
import { mediaRef } from '../media/service.ts';
import type { FacaRepository } from './repository.ts';

type QuestionRow = NonNullable<Awaited<ReturnType<FacaRepository['findQuestion']>>>;
type TaskRow = Awaited<ReturnType<FacaRepository['pageTasks']>>[number];
type Names = Map<number, string>;

const pics = (ids: string[]) => ids.map((id) => mediaRef(id, 'pic'));
const videos = (ids: string[]) => ids.map((id) => mediaRef(id, 'video'));
const iso = (d: Date) => d.toISOString();

/** A pending CA due before today (the factory day now). */
export const isOverdue = (status: number, resolvingTime: string, today: string) =>
  status === CA_STATUS.pending && resolvingTime < today;

const handlersOf = (ids: number[], names: Names) => {
  const list = ids.flatMap((userId) => {
    const name = names.get(userId);
    return name === undefined ? [] : [{ userId, name }];
  });
  return {
    handler: list.map((h) => h.userId).join(','),
    handlerList: list,
    handlerDisplay: list.map((h) => h.name).join(','),
  };
};

export const presentCa = (
  c: Selectable<FacaCasTable>,
  faNum: number,
  names: Names,
  today: string,
): CaInfo => ({
  id: c.id,
  facaInfoId: c.faca_id,
  faInfoId: c.fa_id,
  faNum,
  caNum: `${faNum}.${c.seq}`,
  caDescription: c.ca_description,
  ...handlersOf(c.handler_ids, names),
  resolvingTime: c.resolving_time,
  caStatus: c.status,
  ngReason: c.ng_reason,
  overdue: isOverdue(c.status, c.resolving_time, today),
  caPicList: pics(c.pic_ids),
  caVideoList: videos(c.video_ids),
  resultPicList: pics(c.result_pic_ids),
  updateUser: c.update_user,
  updateTime: iso(c.update_time),
});

export const presentQuestion = (
  q: QuestionRow,
  fas: Selectable<FacaFasTable>[],
  cas: Selectable<FacaCasTable>[],
  names: Names,
  today: string,
): FacaInfo => {
  const seconds = Math.floor(Number(q.time_length) / 1000);
  const facaStatus = [
    ...(q.has_fa ? [FACA_STATUS.faca] : [FACA_STATUS.unhandled]),
    ...(q.unassigned ? [FACA_STATUS.unassigned] : []),
    ...(q.overdue ? [FACA_STATUS.overdue] : []),
  ];
  const faInfos = fas
    .filter((f) => f.faca_id === q.id)
    .map((f): FaInfo => ({
      id: f.id,
      facaInfoId: f.faca_id,
      faNum: f.fa_num,
      faDescription: f.fa_description,
      faPicList: pics(f.pic_ids),
      faVideoList: videos(f.video_ids),
      updateUser: f.update_user,
      updateTime: iso(f.update_time),
      caInfos: cas.filter((c) => c.fa_id === f.id).map((c) => presentCa(c, f.fa_num, names, today)),
    }));
  return {
    id: q.id,
    snCode: q.sn_code,
    workmanship: q.workmanship,
    count: q.count,
    warningContent: q.warning_content,
    facaDescription: q.faca_description,
    timeLength: Number(q.time_length),
    hour: Math.floor(seconds / 3600),
    minute: Math.floor((seconds % 3600) / 60),
    second: seconds % 60,
    influenceParameters: q.influence_parameters,
    dataFrom: q.data_from,
    facaStatus,
    picList: pics(q.pic_ids),
    videoList: videos(q.video_ids),
    updateUser: q.update_user,
    updateTime: iso(q.update_time),
    faInfos,
  };
};

export const presentTask = (t: TaskRow, names: Names, today: string): Task => ({
  caId: t.id,
  facaInfoId: t.faca_id,
  faInfoId: t.fa_id,
  snCode: t.sn_code,
  caNum: `${t.fa_num}.${t.seq}`,
  treatment: t.status,
  taskStatus: taskStatusOf(t.status),
  handles: handlersOf(t.handler_ids, names).handlerDisplay,
  taskContent: t.ca_description,
  resolvingTime: t.resolving_time,
  overdue: isOverdue(t.status, t.resolving_time, today),
});
