import type {
  ApproveBody,
  CreateUserBody,
  ImportBody,
  MachineBody,
  RejectBody,
  SaveGroupBody,
  SaveLineBody,
  UpdateUserBody,
} from '@linewatch/contracts/admin';
import { adminApi } from '@linewatch/contracts/admin-api';
import { applicationsApi } from '@linewatch/contracts/applications-api';
import { PAGE_SIZE } from '@linewatch/contracts/rules/paging';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../shared/api-client.ts';
import { queryKeys } from '../../shared/query-keys.ts';

export const useAccessQuery = () =>
  useQuery({ queryKey: queryKeys.admin.access(), queryFn: () => call(adminApi.access, undefined) });

export const useUsersQuery = () =>
  useQuery({ queryKey: queryKeys.admin.users(), queryFn: () => call(adminApi.users, undefined) });

export const useApplicationsQuery = () =>
  useQuery({
    queryKey: queryKeys.admin.applications(),
    queryFn: () => call(adminApi.applications, undefined),
  });

export const useSmsOutboxQuery = () =>
  useQuery({
    queryKey: queryKeys.admin.sms(),
    queryFn: () => call(applicationsApi.smsOutbox, undefined),
  });

export const useLinesQuery = () =>
  useQuery({ queryKey: queryKeys.admin.lines(), queryFn: () => call(adminApi.lines, undefined) });

export const useMachinesQuery = (keyword: string, pageIndex: number) =>
  useQuery({
    queryKey: queryKeys.admin.machines({ keyword, pageIndex }),
    queryFn: () =>
      call(adminApi.machines, {
        ...(keyword ? { keyword } : {}),
        pageIndex,
        pageSize: PAGE_SIZE.admin,
      }),
  });

export const useAuditQuery = (pageIndex: number) =>
  useQuery({
    queryKey: queryKeys.admin.audit(pageIndex),
    queryFn: () => call(adminApi.audit, { pageIndex, pageSize: PAGE_SIZE.admin }),
  });

/** A change: afterwards every admin list (and the device list, which machines feed) reloads. */
const useAdminMutation = <Input, Reply>(mutationFn: (input: Input) => Promise<Reply>) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.admin.all }),
        client.invalidateQueries({ queryKey: queryKeys.devices.all }),
      ]);
    },
  });
};

export const useCreateUser = () =>
  useAdminMutation((b: CreateUserBody) => call(adminApi.createUser, b));
export const useUpdateUser = () =>
  useAdminMutation((b: UpdateUserBody) => call(adminApi.updateUser, b));
export const useDisableUser = () =>
  useAdminMutation((b: { id: number; disabled: boolean }) => call(adminApi.disableUser, b));
export const useResetPassword = () =>
  useAdminMutation((b: { id: number; password: string }) => call(adminApi.resetPassword, b));
export const useApprove = () => useAdminMutation((b: ApproveBody) => call(adminApi.approve, b));
export const useReject = () => useAdminMutation((b: RejectBody) => call(adminApi.reject, b));
export const useSaveLine = () => useAdminMutation((b: SaveLineBody) => call(adminApi.saveLine, b));
export const useDeleteLine = () =>
  useAdminMutation((id: number) => call(adminApi.deleteLine, { id }));
export const useSaveGroup = () =>
  useAdminMutation((b: SaveGroupBody) => call(adminApi.saveGroup, b));
export const useDeleteGroup = () =>
  useAdminMutation((id: number) => call(adminApi.deleteGroup, { id }));
export const useSaveMachine = () =>
  useAdminMutation(({ body, create }: { body: MachineBody; create: boolean }) =>
    call(create ? adminApi.createMachine : adminApi.updateMachine, body),
  );
export const useDeleteMachine = () =>
  useAdminMutation((snCode: string) => call(adminApi.deleteMachine, { snCode }));
export const useImportMachines = () =>
  useAdminMutation((b: ImportBody) => call(adminApi.importMachines, b));
