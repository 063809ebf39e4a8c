import type {
  AccessReply,
  AdminApplication,
  AdminLine,
  AdminMachine,
  AdminMachineListQuery,
  AdminUser,
  ApproveBody,
  ApproveReply,
  AuditEntry,
  AuditQuery,
  CreateUserBody,
  DisableUserBody,
  IdBody,
  ImportBody,
  ImportReply,
  MachineBody,
  RejectBody,
  ResetPasswordBody,
  SaveGroupBody,
  SaveLineBody,
  SnBody,
  UpdateUserBody,
} from './admin.ts';
import type { Page } from './rules/paging.ts';
import { endpoint } from './endpoint.ts';

/** Administration (schemas in admin.ts). Everything but `access` is for admins only (0403). */
export const adminApi = {
  /** Whether the signed-in user may open the admin pages (any signed-in user may ask). */
  access: endpoint<void, AccessReply>('GET', '/api/admin/access'),

  users: endpoint<void, AdminUser[]>('GET', '/api/admin/users'),
  createUser: endpoint<CreateUserBody, AdminUser>('POST', '/api/admin/users/create'),
  updateUser: endpoint<UpdateUserBody, AdminUser>('POST', '/api/admin/users/update'),
  /** Disabling ends the user's sessions and closes their sockets. */
  disableUser: endpoint<DisableUserBody, AdminUser>('POST', '/api/admin/users/disable'),
  resetPassword: endpoint<ResetPasswordBody, null>('POST', '/api/admin/users/resetPassword'),

  applications: endpoint<void, AdminApplication[]>('GET', '/api/admin/applications'),
  approve: endpoint<ApproveBody, ApproveReply>('POST', '/api/admin/applications/approve'),
  reject: endpoint<RejectBody, AdminApplication>('POST', '/api/admin/applications/reject'),

  lines: endpoint<void, AdminLine[]>('GET', '/api/admin/lines'),
  saveLine: endpoint<SaveLineBody, AdminLine>('POST', '/api/admin/lines/save'),
  deleteLine: endpoint<IdBody, null>('POST', '/api/admin/lines/delete'),
  saveGroup: endpoint<SaveGroupBody, AdminLine>('POST', '/api/admin/groups/save'),
  deleteGroup: endpoint<IdBody, null>('POST', '/api/admin/groups/delete'),

  machines: endpoint<AdminMachineListQuery, Page<AdminMachine>>('GET', '/api/admin/machines'),
  createMachine: endpoint<MachineBody, AdminMachine>('POST', '/api/admin/machines/create'),
  updateMachine: endpoint<MachineBody, AdminMachine>('POST', '/api/admin/machines/update'),
  deleteMachine: endpoint<SnBody, null>('POST', '/api/admin/machines/delete'),
  /** All or nothing: a bad row refuses the sheet (0400, `data.errors` by row number). */
  importMachines: endpoint<ImportBody, ImportReply>('POST', '/api/admin/machines/import'),
  /** The .xlsx itself, not an envelope (a download link; the cookie authorises a GET). */
  exportMachines: endpoint<void, never>('GET', '/api/admin/machines/export'),

  audit: endpoint<AuditQuery, Page<AuditEntry>>('GET', '/api/admin/audit'),
} as const;
