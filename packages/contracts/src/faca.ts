import { z } from 'zod';
import { pageNumberField, pageSizeField } from './paging.ts';
import { calendarDate, text, whenMissing } from './primitives.ts';
import { CA_STATUS, CA_STATUSES, needsNgReason, TASK_STATUSES } from './rules/ca-statuses.ts';
import { PAGE_SIZE, pagingMessages } from './rules/paging.ts';
import { FACA_STATUSES } from './rules/question-statuses.ts';
import { facaMessages, MEDIA_LIMITS, DATA_FROM_MANUAL } from './faca-labels.ts';

/** FACA quality questions, FA, CA and tasks (docs/product.md sections 3, 4, 5, 7). */
export const mediaType = z.enum(['pic', 'video']);
export type MediaType = z.infer<typeof mediaType>;

/** A row id: a positive PostgreSQL integer (a larger one would fail in the database, 0500). */
const id = z.coerce
  .number({ error: facaMessages.badId })
  .int(facaMessages.badId)
  .positive(facaMessages.badId)
  .max(2_147_483_647, facaMessages.badId);
const optionalId = z.union([id, z.literal('').transform(() => undefined)]).optional();
/** Required text: trimmed, not empty, no control characters, at most 500 characters. */
const required = (message: string) =>
  text(message, message).trim().min(1, message).max(500, facaMessages.textTooLong);
const digits = (message: string, max: number) =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^\d{1,9}$/, message)
          .transform(Number),
      ],
      {
        error: message,
      },
    )
    .pipe(z.number({ error: message }).int(message).min(0, message).max(max, message));
const mediaIds = (message: string) =>
  z
    .array(z.string().regex(/^[0-9a-f]{32}$/, facaMessages.badMedia), {
      error: facaMessages.badMedia,
    })
    .max(MEDIA_LIMITS.maxFiles, message)
    .default([]);
const pageNum = pageNumberField();
// The FACA lists say badPage for a bad size too, and take up to the option lists' 1000.
const pageSize = (fallback: number) =>
  pageSizeField(fallback, { max: PAGE_SIZE.options, message: pagingMessages.badPage });
const filterText = text().trim().max(64, facaMessages.textTooLong).optional();
/** A list of codes as the query string carries them: [0, 1] → ['0', '1']. */
const codes = <const T extends readonly number[]>(list: T) =>
  list.map(String) as unknown as { [K in keyof T]: `${T[K]}` };

// ---------------------------------------------------------------------------------------------
// Requests

/** POST addOrUpdateFacaInfo: the question form (docs/product.md section 5). */
export const facaInfoBody = z.object({
  id: optionalId,
  snCode: required(facaMessages.snCode),
  workmanship: required(facaMessages.workmanship),
  count: digits(facaMessages.count, 1_000_000).refine((n) => n >= 1, facaMessages.count),
  warningContent: required(facaMessages.warningContent),
  facaDescription: required(facaMessages.facaDescription),
  hour: digits(facaMessages.duration, 9999).default(0),
  minute: digits(facaMessages.duration, 59).default(0),
  second: digits(facaMessages.duration, 59).default(0),
  influenceParameters: required(facaMessages.influenceParameters),
  dataFrom: text().trim().max(32, facaMessages.textTooLong).default(DATA_FROM_MANUAL),
  facaPicIds: mediaIds(facaMessages.tooManyPictures),
  facaVideoIds: mediaIds(facaMessages.tooManyVideos),
});
export type FacaInfoBody = z.input<typeof facaInfoBody>;

/** POST addOrUpdateFaInfo. */
export const faInfoBody = z.object({
  id: optionalId,
  facaInfoId: id,
  faDescription: required(facaMessages.faDescription),
  faPicIds: mediaIds(facaMessages.tooManyPictures),
  faVideoIds: mediaIds(facaMessages.tooManyVideos),
});
export type FaInfoBody = z.input<typeof faInfoBody>;

const treatment = z.coerce
  .number({ error: facaMessages.treatment })
  .int(facaMessages.treatment)
  .min(CA_STATUS.pending, facaMessages.treatment)
  .max(CA_STATUS.ng, facaMessages.treatment);

const ngReasonWhenNg = <T extends { ngReason?: string | undefined }>(
  value: T,
  status: number,
  ctx: z.RefinementCtx,
) => {
  if (needsNgReason(status) && !value.ngReason)
    ctx.addIssue({ code: 'custom', path: ['ngReason'], message: facaMessages.ngReason });
};

/**
 * POST addOrUpdateCaInfo; handler is user ids, comma-separated (docs/product.md section 3). The fields are
 * in the order of docs/product.md section 5 (corrective action, related FA, handler, due date, NG reason):
 * the form says the first problem zod finds, and zod finds them in key order.
 */
export const caInfoBody = z
  .object({
    id: optionalId,
    facaInfoId: id,
    caDescription: required(facaMessages.caDescription),
    faInfoId: z
      .union([id, z.literal('')], { error: facaMessages.faInfoId })
      .refine((v) => v !== '', facaMessages.faInfoId),
    handler: text(facaMessages.handler, facaMessages.handler)
      .trim()
      .regex(/^\d{1,9}(,\d{1,9}){0,19}$/, facaMessages.handler),
    resolvingTime: calendarDate(facaMessages.resolvingTime, facaMessages.resolvingTime),
    caStatus: treatment.default(CA_STATUS.pending),
    ngReason: text().trim().max(500, facaMessages.textTooLong).optional(),
    caPicIds: mediaIds(facaMessages.tooManyPictures),
    caVideoIds: mediaIds(facaMessages.tooManyVideos),
  })
  .superRefine((value, ctx) => ngReasonWhenNg(value, value.caStatus, ctx));
export type CaInfoBody = z.input<typeof caInfoBody>;

/** POST submitTask: a handler's result (task detail page). */
export const taskResultBody = z
  .object({
    caId: id,
    treatment: treatment.refine((t) => t !== CA_STATUS.pending, facaMessages.treatment),
    ngReason: text().trim().max(500, facaMessages.textTooLong).optional(),
    picIds: mediaIds(facaMessages.tooManyPictures),
  })
  .superRefine((value, ctx) => ngReasonWhenNg(value, value.treatment, ctx));
export type TaskResultBody = z.input<typeof taskResultBody>;

/** GET facaInfoPage (docs/product.md section 7). */
export const facaPageQuery = z.object({
  snCode: filterText,
  warningContent: filterText,
  workmanship: filterText,
  facaStatus: z.union([z.literal(''), z.enum(codes(FACA_STATUSES))]).optional(),
  pageNum,
  pageSize: pageSize(PAGE_SIZE.faca),
});
export type FacaPageQuery = z.input<typeof facaPageQuery>;

export const facaByIdQuery = z.object({ facaInfoId: id });
export type FacaByIdQuery = z.input<typeof facaByIdQuery>;

export const optionsQuery = z.object({ pageNum, pageSize: pageSize(PAGE_SIZE.options) });
export type OptionsQuery = z.input<typeof optionsQuery>;

/** GET taskPage: the signed-in user's tasks. */
export const taskPageQuery = z.object({
  snCode: filterText,
  taskStatus: z.union([z.literal(''), z.enum(codes(TASK_STATUSES))]).optional(),
  treatment: z.union([z.literal(''), z.enum(codes(CA_STATUSES))]).optional(),
  pageNum,
  pageSize: pageSize(PAGE_SIZE.faca),
});
export type TaskPageQuery = z.input<typeof taskPageQuery>;

export const caIdQuery = z.object({ caId: id });
export type CaIdQuery = z.input<typeof caIdQuery>;

/** Who may be picked as a handler for the question's machine. */
export const handlerListQuery = z.object({ snCode: required(facaMessages.snCode) });
export type HandlerListQuery = z.input<typeof handlerListQuery>;

export const mediaQuery = z.object({
  id: z.string(whenMissing(facaMessages.badMedia)).regex(/^[0-9a-f]{32}$/, facaMessages.badMedia),
  type: mediaType.optional(),
});

export const uploadQuery = z.object({
  type: z.enum(mediaType.options, { error: facaMessages.mediaType }),
});

// ---------------------------------------------------------------------------------------------
// Replies

/** A stored picture or video; the app shows `thumbUrl` in lists and `url` (getHDImage) in full. */
export const mediaRef = z.object({
  id: z.string(),
  type: mediaType,
  url: z.string(),
  thumbUrl: z.string().nullable(),
});
export type MediaRef = z.infer<typeof mediaRef>;

export const caInfo = z.object({
  id: z.number(),
  facaInfoId: z.number(),
  faInfoId: z.number(),
  faNum: z.number(),
  caNum: z.string(),
  caDescription: z.string(),
  handler: z.string(),
  handlerList: z.array(z.object({ userId: z.number(), name: z.string() })),
  handlerDisplay: z.string(),
  resolvingTime: z.string(),
  caStatus: z.number(),
  ngReason: z.string(),
  overdue: z.boolean(),
  caPicList: z.array(mediaRef),
  caVideoList: z.array(mediaRef),
  resultPicList: z.array(mediaRef),
  updateUser: z.string(),
  updateTime: z.string(),
});
export type CaInfo = z.infer<typeof caInfo>;

export const faInfo = z.object({
  id: z.number(),
  facaInfoId: z.number(),
  faNum: z.number(),
  faDescription: z.string(),
  faPicList: z.array(mediaRef),
  faVideoList: z.array(mediaRef),
  updateUser: z.string(),
  updateTime: z.string(),
  caInfos: z.array(caInfo),
});
export type FaInfo = z.infer<typeof faInfo>;

export const facaInfo = z.object({
  id: z.number(),
  snCode: z.string(),
  workmanship: z.string(),
  count: z.number(),
  warningContent: z.string(),
  facaDescription: z.string(),
  timeLength: z.number(),
  hour: z.number(),
  minute: z.number(),
  second: z.number(),
  influenceParameters: z.string(),
  dataFrom: z.string(),
  facaStatus: z.array(z.number()),
  picList: z.array(mediaRef),
  videoList: z.array(mediaRef),
  updateUser: z.string(),
  updateTime: z.string(),
  faInfos: z.array(faInfo),
});
export type FacaInfo = z.infer<typeof facaInfo>;

export const namedOption = z.object({ id: z.number(), name: z.string() });
export type NamedOption = z.infer<typeof namedOption>;

export const task = z.object({
  caId: z.number(),
  facaInfoId: z.number(),
  faInfoId: z.number(),
  snCode: z.string(),
  caNum: z.string(),
  treatment: z.number(),
  taskStatus: z.number(),
  handles: z.string(),
  taskContent: z.string(),
  resolvingTime: z.string(),
  overdue: z.boolean(),
});
export type Task = z.infer<typeof task>;

export const facaInfoIds = z.object({ FaCaId: z.number(), FaId: z.number(), CaId: z.number() });
export type FacaInfoIds = z.infer<typeof facaInfoIds>;

export const savedId = z.object({ id: z.number() });
export type SavedId = z.infer<typeof savedId>;

export const handlerOption = z.object({ userId: z.number(), name: z.string() });
export type HandlerOption = z.infer<typeof handlerOption>;

export const uploadReply = z.array(mediaRef);

/** Duration in ms from the form's hours, minutes and seconds (docs/product.md section 5). */
export const durationMs = (hour: number, minute: number, second: number) =>
  (hour * 3600 + minute * 60 + second) * 1000;
