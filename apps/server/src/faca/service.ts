import { ReplyCode } from '@linewatch/contracts/envelope';
import {
  durationMs,
  type caInfoBody,
  type facaInfoBody,
  type facaPageQuery,
  type faInfoBody,
  type FacaInfo,
  type HandlerOption,
  type NamedOption,
  type optionsQuery,
  type Task,
  type taskPageQuery,
  type taskResultBody,
} from '@linewatch/contracts/faca';
import { facaMessages } from '@linewatch/contracts/faca-labels';
import { CA_STATUS, needsNgReason } from '@linewatch/contracts/rules/ca-statuses';
import type { ContentPage } from '@linewatch/contracts/rules/paging';
import type { z } from 'zod';
import type { Db } from '../foundation/db/database.ts';
import type { MachineCheck } from '../plugins/visibility.ts';
import { DomainError, forbidden, notFound } from '../foundation/http/envelope.ts';
import type { SessionUser } from '../plugins/auth.ts';
import type { MediaService } from '../media/service.ts';
import type { Executor, Notifications } from '../notifications/service.ts';
import { dayOf } from '../foundation/shared/time.ts';
import { presentQuestion, presentTask } from './presenter.ts';
import type { FacaRepository } from './repository.ts';

export interface FacaDeps {
  db: Db;
  repo: FacaRepository;
  media: Pick<MediaService, 'attach'>;
  notifications: Notifications;
  checkMachine: (user: SessionUser, sn: string) => Promise<MachineCheck>;
  visibleLineIds: (user: SessionUser) => Promise<number[] | null>;
  /** The clock: overdue means "due date before today" (tests move it). */
  now: () => number;
  timeZone: string;
}

const badInput = (message: string, path: string) =>
  new DomainError(ReplyCode.badInput, message, { errors: [{ path, message }] });

const whoOf = (user: SessionUser) => user.nickName || user.name;

/** The app path of a task (apps/web shared/paths.ts, links.facaEditTask). */
const taskLink = (facaId: number, faId: number, caId: number) =>
  `/faca/editTask?facaInfoId=${facaId}&faInfoId=${faId}&caInfoId=${caId}`;

export const createFacaService = (deps: FacaDeps) => {
  const { db, repo, media, notifications, checkMachine, visibleLineIds, timeZone } = deps;
  const today = () => dayOf(deps.now(), timeZone);

  /** The machine must exist (else the form's SN message) and be on the user's lines (0403). */
  const requireSn = async (user: SessionUser, sn: string) => {
    const check = await checkMachine(user, sn);
    if (!check.ok) {
      if (check.reason === 'unknown') throw badInput(facaMessages.snCode, 'snCode');
      throw forbidden();
    }
    return check.device;
  };

  /** A question the user may see: 0404 when there is none, 0403 when its machine is hidden. */
  const requireQuestion = async (user: SessionUser, id: number) => {
    const q = await repo.findQuestion(id, today());
    if (!q) throw notFound();
    if (!(await checkMachine(user, q.sn_code)).ok) throw forbidden();
    return q;
  };

  const present = async (
    rows: NonNullable<Awaited<ReturnType<FacaRepository['findQuestion']>>>[],
  ) => {
    const ids = rows.map((r) => r.id);
    const [fas, cas] = await Promise.all([repo.fasOf(ids), repo.casOf(ids)]);
    const names = await repo.userNames([...new Set(cas.flatMap((c) => c.handler_ids))]);
    const day = today();
    return rows.map((q) => presentQuestion(q, fas, cas, names, day));
  };

  const options =
    (table: 'faca_workmanships' | 'faca_influence_parameters') =>
    async (query: z.output<typeof optionsQuery>): Promise<ContentPage<NamedOption>> => {
      const o = repo.options(table);
      const [totalElements, content] = await Promise.all([
        o.count(),
        o.page((query.pageNum - 1) * query.pageSize, query.pageSize),
      ]);
      return { content, totalElements };
    };

  /**
   * The rules of an edit of an existing CA, by what it changes. Its result (status, NG reason)
   * is its current handlers' to give, or an admin's — never the handlers the request names, or
   * anyone could name themselves and answer in one save. Its handlers are changed by a current
   * handler (handing it over), its assigner or an admin; a CA whose handlers have all left may
   * be taken up by anyone who sees the question, or it would wait for an admin. The rest (the
   * action's wording, due date, pictures) is anyone's who sees the question, as before.
   */
  const checkCaEdit = async (
    user: SessionUser,
    before: NonNullable<Awaited<ReturnType<FacaRepository['findCa']>>>,
    handlerIds: readonly number[],
    status: number,
    ngReason: string,
  ) => {
    if (user.isAdmin) return;
    const isHandler = before.handler_ids.includes(user.userId);
    if ((status !== before.status || ngReason !== before.ng_reason) && !isHandler)
      throw new DomainError(ReplyCode.forbidden, facaMessages.onlyHandler);
    const same =
      handlerIds.length === before.handler_ids.length &&
      handlerIds.every((h) => before.handler_ids.includes(h));
    if (same || isHandler || before.created_by === user.userId) return;
    if ((await repo.userNames(before.handler_ids)).size > 0)
      throw new DomainError(ReplyCode.forbidden, facaMessages.onlyAssigner);
  };

  const attachAll = async (
    tx: Executor,
    user: SessionUser,
    facaId: number,
    pics: readonly string[],
    videos: readonly string[],
  ) => {
    await media.attach(tx, user, facaId, pics, 'pic');
    await media.attach(tx, user, facaId, videos, 'video');
  };

  return {
    async page(
      user: SessionUser,
      query: z.output<typeof facaPageQuery>,
    ): Promise<ContentPage<FacaInfo>> {
      const filter = {
        lineIds: await visibleLineIds(user),
        snCode: query.snCode || undefined,
        warningContent: query.warningContent || undefined,
        workmanship: query.workmanship || undefined,
        facaStatus: query.facaStatus || undefined,
        today: today(),
      };
      const [totalElements, rows] = await Promise.all([
        repo.countQuestions(filter),
        repo.pageQuestions(filter, (query.pageNum - 1) * query.pageSize, query.pageSize),
      ]);
      return { content: await present(rows), totalElements };
    },

    async byId(user: SessionUser, id: number): Promise<FacaInfo> {
      return (await present([await requireQuestion(user, id)]))[0]!;
    },

    async saveQuestion(user: SessionUser, body: z.output<typeof facaInfoBody>) {
      if (body.id !== undefined) await requireQuestion(user, body.id);
      await requireSn(user, body.snCode);
      if (!(await repo.options('faca_workmanships').exists([body.workmanship])))
        throw badInput(facaMessages.workmanship, 'workmanship');
      const params = body.influenceParameters
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean);
      if (!params.length || !(await repo.options('faca_influence_parameters').exists(params)))
        throw badInput(facaMessages.influenceParameters, 'influenceParameters');
      const row = {
        sn_code: body.snCode,
        workmanship: body.workmanship,
        count: body.count,
        warning_content: body.warningContent,
        faca_description: body.facaDescription,
        time_length: durationMs(body.hour, body.minute, body.second),
        influence_parameters: params.join(','),
        data_from: body.dataFrom,
        pic_ids: body.facaPicIds,
        video_ids: body.facaVideoIds,
        update_user: whoOf(user),
        update_time: new Date(deps.now()),
      };
      return db.transaction().execute(async (tx) => {
        const id = body.id ?? (await repo.insertQuestion(tx, row)).id;
        if (body.id !== undefined) await repo.updateQuestion(tx, id, row);
        await attachAll(tx, user, id, body.facaPicIds, body.facaVideoIds);
        return { id };
      });
    },

    async saveFa(user: SessionUser, body: z.output<typeof faInfoBody>) {
      await requireQuestion(user, body.facaInfoId);
      if (body.id !== undefined) {
        const fa = await repo.findFa(body.id);
        if (!fa || fa.faca_id !== body.facaInfoId) throw notFound();
      }
      const row = {
        fa_description: body.faDescription,
        pic_ids: body.faPicIds,
        video_ids: body.faVideoIds,
        update_user: whoOf(user),
        update_time: new Date(deps.now()),
      };
      return db.transaction().execute(async (tx) => {
        let id = body.id;
        if (id === undefined) {
          const faNum = await repo.nextFaNum(tx, body.facaInfoId);
          id = (await repo.insertFa(tx, { ...row, faca_id: body.facaInfoId, fa_num: faNum })).id;
        } else await repo.updateFa(tx, id, row);
        await attachAll(tx, user, body.facaInfoId, body.faPicIds, body.faVideoIds);
        return { id };
      });
    },

    async saveCa(user: SessionUser, body: z.output<typeof caInfoBody>) {
      const question = await requireQuestion(user, body.facaInfoId);
      const fa = await repo.findFa(Number(body.faInfoId));
      if (!fa || fa.faca_id !== question.id) throw badInput(facaMessages.faInfoId, 'faInfoId');
      const before = body.id === undefined ? undefined : await repo.findCa(body.id);
      if (body.id !== undefined && (!before || before.faca_id !== question.id)) throw notFound();

      const handlerIds = [...new Set(body.handler.split(',').map(Number))];
      const device = await requireSn(user, question.sn_code);
      const allowed = new Set((await repo.usersOfLine(device.lineId)).map((u) => u.id));
      if (!handlerIds.every((h) => allowed.has(h)))
        throw badInput(facaMessages.handlerCannotSee, 'handler');
      const status = body.caStatus;
      const ngReason = needsNgReason(status) ? (body.ngReason ?? '') : '';
      if (before) await checkCaEdit(user, before, handlerIds, status, ngReason);
      else if (status !== CA_STATUS.pending && !user.isAdmin && !handlerIds.includes(user.userId))
        // A new CA has no handlers yet: its creator gives a result only as one of those it names.
        throw new DomainError(ReplyCode.forbidden, facaMessages.onlyHandler);

      const row = {
        fa_id: fa.id,
        ca_description: body.caDescription,
        handler_ids: handlerIds,
        resolving_time: body.resolvingTime,
        status,
        ng_reason: ngReason,
        pic_ids: body.caPicIds,
        video_ids: body.caVideoIds,
        update_user: whoOf(user),
        update_time: new Date(deps.now()),
      };
      return db.transaction().execute(async (tx) => {
        let id = body.id;
        let seq = before?.seq ?? 0;
        if (id === undefined || before?.fa_id !== fa.id) seq = await repo.nextCaSeq(tx, fa.id);
        if (id === undefined) {
          id = (
            await repo.insertCa(tx, { ...row, seq, faca_id: question.id, created_by: user.userId })
          ).id;
        } else await repo.updateCa(tx, id, { ...row, seq });
        await attachAll(tx, user, question.id, body.caPicIds, body.caVideoIds);
        // Newly named handlers hear of it, in this transaction (committed with the CA or not at all).
        const previous = new Set(before?.handler_ids ?? []);
        const caId = id;
        await notifications.notify(
          tx,
          handlerIds
            .filter((h) => !previous.has(h) && h !== user.userId)
            .map((userId) => ({
              userId,
              kind: 'faca-task',
              title: '新的FACA任务',
              body: `${question.sn_code} CA ${fa.fa_num}.${seq}：${body.caDescription}（纳期 ${body.resolvingTime}）`,
              link: taskLink(question.id, fa.id, caId),
              dedupeKey: `faca-task:${caId}:${userId}`,
              fields: { sn: question.sn_code, content: body.caDescription },
            })),
        );
        return { id };
      });
    },

    workmanships: options('faca_workmanships'),
    influenceParameters: options('faca_influence_parameters'),

    async handlers(user: SessionUser, sn: string): Promise<HandlerOption[]> {
      const device = await requireSn(user, sn);
      return (await repo.usersOfLine(device.lineId)).map((u) => ({
        userId: u.id,
        name: u.nick_name || u.name,
      }));
    },

    async taskPage(
      user: SessionUser,
      query: z.output<typeof taskPageQuery>,
    ): Promise<ContentPage<Task>> {
      const filter = {
        userId: user.userId,
        lineIds: await visibleLineIds(user),
        snCode: query.snCode || undefined,
        taskStatus: query.taskStatus || undefined,
        treatment: query.treatment || undefined,
        today: today(),
      };
      const [totalElements, rows] = await Promise.all([
        repo.countTasks(filter),
        repo.pageTasks(filter, (query.pageNum - 1) * query.pageSize, query.pageSize),
      ]);
      const names = await repo.userNames([...new Set(rows.flatMap((r) => r.handler_ids))]);
      const day = today();
      return { content: rows.map((r) => presentTask(r, names, day)), totalElements };
    },

    async facaInfoIds(user: SessionUser, caId: number) {
      const ca = await repo.findCa(caId);
      if (!ca) throw notFound();
      await requireQuestion(user, ca.faca_id);
      return { FaCaId: ca.faca_id, FaId: ca.fa_id, CaId: ca.id };
    },

    /** A handler's result: sets the CA status (the task's treatment) and completes the task. */
    async submitTask(user: SessionUser, body: z.output<typeof taskResultBody>) {
      const ca = await repo.findCa(body.caId);
      if (!ca) throw notFound();
      await requireQuestion(user, ca.faca_id);
      if (!user.isAdmin && !ca.handler_ids.includes(user.userId))
        throw new DomainError(ReplyCode.forbidden, facaMessages.onlyHandler);
      return db.transaction().execute(async (tx) => {
        await repo.updateCa(tx, ca.id, {
          status: body.treatment,
          ng_reason: needsNgReason(body.treatment) ? (body.ngReason ?? '') : '',
          result_pic_ids: body.picIds,
          update_user: whoOf(user),
          update_time: new Date(deps.now()),
        });
        await media.attach(tx, user, ca.faca_id, body.picIds, 'pic');
        return { id: ca.id };
      });
    },
  };
};

export type FacaService = ReturnType<typeof createFacaService>;
