import { gatewaysApi } from '@linewatch/contracts/gateways-api';
import { useQuery } from '@tanstack/react-query';
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
