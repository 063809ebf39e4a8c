import { z } from 'zod';
import { mobileSchema } from './applications.ts';
import { pageNumberField, pageSizeField } from './paging.ts';
import { snCode, text, whenMissing } from './primitives.ts';
import { PAGE_SIZE } from './rules/paging.ts';

/** Administration (admins only): copy shared by the admin pages and the server. */
export const adminMessages = {
  psnCodeRequired: '请输入工号',
  nameRequired: '请输入姓名',
  passwordRequired: '请输入密码',
  passwordTooShort: '密码至少8位',
  tooLong: '内容过长',
  badId: '编号无效',
  lineNameRequired: '请输入产线名称',
  groupNameRequired: '请输入产品组名称',
  lineRequired: '请选择产线',
  snRequired: '请输入机台SN码',
  deviceNameRequired: '请输入设备名称',
  badNumber: '目标值必须是不小于0的数字',
  badPercent: '百分比目标应在0到100之间',
  badInteger: '数量目标必须是不小于0的整数',
  reasonRequired: '请输入驳回原因',
  disabledRequired: '请选择停用或启用',
  fileRequired: '请选择要导入的表格',
  badSheet: '无法读取表格，请上传 .xlsx 文件',
  emptySheet: '表格中没有机台数据',
  tooManyRows: '一次最多导入5000行',
  sheetTooLarge: '表格内容过大或文件已损坏，无法导入（解压后不能超过32MB）',
  userExists: '该工号已存在',
  lineExists: '该产线名称已存在',
  groupExists: '该产线下已有同名产品组',
  machineExists: '该SN码已存在',
  lineNotFound: '产线不存在',
  groupNotFound: '产品组不存在',
  groupNotOfLine: '产品组不属于所选产线',
  userNotFound: '用户不存在',
  machineNotFound: '机台不存在',
  applicationNotFound: '申请不存在',
  applicationDecided: '该申请已处理',
  lineInUse: '该产线下还有机台，无法删除',
  groupInUse: '该产品组下还有机台，无法删除',
  machineBound: '该机台已绑定网关，请先解绑',
  notYourself: '不能停用或降级自己的账号',
  saved: '保存成功',
} as const;

const id = z.coerce
  .number({ error: adminMessages.badId })
  .int(adminMessages.badId)
  .positive(adminMessages.badId);
const lineIds = z.array(id).max(1000, adminMessages.tooLong);
const password = text(undefined, adminMessages.passwordRequired)
  .min(8, adminMessages.passwordTooShort)
  .max(128, adminMessages.tooLong);
const label = (required: string, max = 64) =>
  text(undefined, required).trim().min(1, required).max(max, adminMessages.tooLong);
const optionalLabel = (max = 64) => text().trim().max(max, adminMessages.tooLong).default('');

// ---------------------------------------------------------------------------------------------
// Users

export const adminUser = z.object({
  id: z.number(),
  psnCode: z.string(),
  name: z.string(),
  nickName: z.string(),
  mobile: z.string().nullable(),
  isAdmin: z.boolean(),
  disabled: z.boolean(),
  lineIds: z.array(z.number()),
  createdAt: z.string(),
});
export type AdminUser = z.infer<typeof adminUser>;

export const createUserBody = z.object({
  psnCode: label(adminMessages.psnCodeRequired, 32),
  name: label(adminMessages.nameRequired, 32),
  nickName: optionalLabel(32),
  mobile: mobileSchema.optional().or(z.literal('')),
  password,
  isAdmin: z.boolean().default(false),
  lineIds: lineIds.default([]),
});
export type CreateUserBody = z.input<typeof createUserBody>;

/** Grant lines, make (or unmake) admin, rename: only the fields given change. */
export const updateUserBody = z.object({
  id,
  name: label(adminMessages.nameRequired, 32).optional(),
  nickName: text().trim().max(32, adminMessages.tooLong).optional(),
  isAdmin: z.boolean().optional(),
  lineIds: lineIds.optional(),
});
export type UpdateUserBody = z.input<typeof updateUserBody>;

export const disableUserBody = z.object({
  id,
  disabled: z.boolean(whenMissing(adminMessages.disabledRequired)),
});
export type DisableUserBody = z.input<typeof disableUserBody>;

export const resetPasswordBody = z.object({ id, password });
export type ResetPasswordBody = z.input<typeof resetPasswordBody>;

export const idBody = z.object({ id });
export type IdBody = z.input<typeof idBody>;

// ---------------------------------------------------------------------------------------------
// Applications

export const adminApplication = z.object({
  id: z.number(),
  name: z.string(),
  psnCode: z.string(),
  mobile: z.string(),
  status: z.enum(['pending', 'approved', 'rejected']),
  reason: z.string(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type AdminApplication = z.infer<typeof adminApplication>;

export const approveBody = z.object({ id, lineIds: lineIds.default([]) });
export type ApproveBody = z.input<typeof approveBody>;

/** The account made: its initial password is shown once here and sent to the applicant by SMS. */
export const approveReply = z.object({ userId: z.number(), initialPassword: z.string() });
export type ApproveReply = z.infer<typeof approveReply>;

export const rejectBody = z.object({ id, reason: label(adminMessages.reasonRequired, 200) });
export type RejectBody = z.input<typeof rejectBody>;

// ---------------------------------------------------------------------------------------------
// Production lines and product groups

export const adminGroup = z.object({ id: z.number(), name: z.string(), machineCount: z.number() });
export const adminLine = z.object({
  id: z.number(),
  name: z.string(),
  sort: z.number(),
  machineCount: z.number(),
  groups: z.array(adminGroup),
});
export type AdminLine = z.infer<typeof adminLine>;

export const saveLineBody = z.object({
  id: id.optional(),
  name: label(adminMessages.lineNameRequired),
  sort: z.coerce.number().int(adminMessages.badInteger).min(0, adminMessages.badInteger).default(0),
});
export type SaveLineBody = z.input<typeof saveLineBody>;

export const saveGroupBody = z.object({
  id: id.optional(),
  lineId: id,
  name: label(adminMessages.groupNameRequired),
});
export type SaveGroupBody = z.input<typeof saveGroupBody>;

// ---------------------------------------------------------------------------------------------
// Machines

const target = z.coerce
  .number({ error: adminMessages.badNumber })
  .min(0, adminMessages.badNumber)
  .max(1e9, adminMessages.badNumber);
const percentTarget = z.coerce
  .number({ error: adminMessages.badPercent })
  .min(0, adminMessages.badPercent)
  .max(100, adminMessages.badPercent);
const countTarget = z.coerce
  .number({ error: adminMessages.badInteger })
  .int(adminMessages.badInteger)
  .min(0, adminMessages.badInteger)
  .max(1e9, adminMessages.badInteger);

/** Every field an admin sets on a machine, with the targets of docs/design.md section 5. */
const machineFields = {
  deviceName: label(adminMessages.deviceNameRequired),
  nickSnCode: optionalLabel(),
  nickDeviceName: optionalLabel(),
  machineName: optionalLabel(),
  projectName: optionalLabel(),
  country: optionalLabel(32),
  province: optionalLabel(32),
  city: optionalLabel(32),
  ppmTarget: target.default(0),
  yieldTarget: percentTarget.default(0),
  superiorityRateTarget: percentTarget.default(0),
  useRateTarget: percentTarget.default(0),
  produceTargetNumber: countTarget.default(0),
  ngTargetNumber: countTarget.default(0),
  capacityTarget: countTarget.default(0),
  maxPpm: target.nullable().default(null),
  plcModel: optionalLabel(),
};

/** The one SN alphabet (primitives.ts): what an admin registers can be bound and can report. */
export const snCodeSchema = snCode(adminMessages.snRequired);

export const machineBody = z.object({
  snCode: snCodeSchema,
  lineId: z.coerce
    .number({ error: adminMessages.lineRequired })
    .int(adminMessages.lineRequired)
    .positive(adminMessages.lineRequired),
  groupId: id.nullable().default(null),
  ...machineFields,
});
export type MachineBody = z.input<typeof machineBody>;

/** One row of the import sheet: the line and group by name, as a person types them. */
export const machineImportRow = z.object({
  snCode: snCodeSchema,
  line: label(adminMessages.lineRequired),
  group: optionalLabel(),
  ...machineFields,
});
export type MachineImportRow = z.infer<typeof machineImportRow>;

export const adminMachine = z.object({
  snCode: z.string(),
  lineId: z.number(),
  lineName: z.string(),
  groupId: z.number().nullable(),
  groupName: z.string(),
  deviceName: z.string(),
  nickSnCode: z.string(),
  nickDeviceName: z.string(),
  machineName: z.string(),
  projectName: z.string(),
  country: z.string(),
  province: z.string(),
  city: z.string(),
  ppmTarget: z.number(),
  yieldTarget: z.number(),
  superiorityRateTarget: z.number(),
  useRateTarget: z.number(),
  produceTargetNumber: z.number(),
  ngTargetNumber: z.number(),
  capacityTarget: z.number(),
  maxPpm: z.number().nullable(),
  plcModel: z.string(),
  gatewayId: z.string().nullable(),
});
export type AdminMachine = z.infer<typeof adminMachine>;

const pageIndex = pageNumberField();
const pageSize = pageSizeField(PAGE_SIZE.admin);

export const machineListQuery = z.object({
  keyword: text().trim().max(64, adminMessages.tooLong).optional(),
  lineId: id.optional(),
  pageIndex,
  pageSize,
});
export type AdminMachineListQuery = z.input<typeof machineListQuery>;

/**
 * Names a machine that exists: any SN on file, so one registered before the alphabet was one
 * rule (a dot) can still be deleted.
 */
export const snBody = z.object({ snCode: label(adminMessages.snRequired) });
export type SnBody = z.input<typeof snBody>;

/** The .xlsx file, base64: a sheet of 5000 machines is well under a megabyte. */
export const importBody = z.object({
  file: z
    .string(whenMissing(adminMessages.fileRequired))
    .min(1, adminMessages.fileRequired)
    .max(8 * 1024 * 1024, adminMessages.tooManyRows)
    .regex(/^[A-Za-z0-9+/=]+$/, adminMessages.badSheet),
});
export type ImportBody = z.input<typeof importBody>;

export const importReply = z.object({ created: z.number(), updated: z.number() });
export type ImportReply = z.infer<typeof importReply>;

/**
 * A refused import's `data`: every bad row, `path` `row.<N>` and `message` `第N行：…`, N as the
 * spreadsheet numbers its rows (the header is row 1).
 */
export interface ImportRefusal {
  errors: { path: string; message: string }[];
}

// ---------------------------------------------------------------------------------------------
// Audit log

export const auditQuery = z.object({ pageIndex, pageSize });
export type AuditQuery = z.input<typeof auditQuery>;

export const auditEntry = z.object({
  id: z.number(),
  actorName: z.string(),
  action: z.string(),
  target: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const accessReply = z.object({ isAdmin: z.boolean() });
export type AccessReply = z.infer<typeof accessReply>;
