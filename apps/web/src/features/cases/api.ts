import { casesApi } from '@linewatch/contracts/cases-api';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../shared/api-client.ts';
import { queryKeys } from '../../shared/query-keys.ts';

export const useFailureCase = (casesId: string) =>
  useQuery({
    queryKey: queryKeys.cases.one(casesId),
    enabled: casesId !== '',
    queryFn: ({ signal }) => call(casesApi.failureCase, { casesId }, { signal }),
  });
