import { gatewaysApi } from '@linewatch/contracts/gateways-api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../shared/api-client.ts';
import { queryKeys } from '../../shared/query-keys.ts';

/** The PLC model picker's options (GET /api/wechat/getPlcModel). */
export const usePlcModels = () =>
  useQuery({
    queryKey: queryKeys.gateways.plcModels(),
    queryFn: () => call(gatewaysApi.plcModels, undefined),
    staleTime: Infinity,
  });

/** The admin registry of gateways. */
export const useGatewayRegistry = () =>
  useQuery({
    queryKey: queryKeys.gateways.registry(),
    queryFn: () => call(gatewaysApi.adminList, undefined),
  });

/** Registers a gateway or rotates its credential; the secret in the reply is shown once. */
export const useCredentialMutation = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ action, serial }: { action: 'register' | 'rotate'; serial: string }) =>
      action === 'register'
        ? call(gatewaysApi.adminRegister, { serial })
        : call(gatewaysApi.adminRotate, { serial }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.gateways.registry() }),
  });
};
