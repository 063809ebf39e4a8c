import type { FacaPageQuery, NamedOption, TaskPageQuery } from '@linewatch/contracts/faca';
import { facaApi } from '@linewatch/contracts/faca-api';
import { nextPageAfter, PAGE_SIZE, type ContentPage } from '@linewatch/contracts/rules/paging';
import type { Endpoint } from '@linewatch/contracts/endpoint';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../shared/api-client.ts';
import { queryKeys } from '../../shared/query-keys.ts';

const nextPage = <T>(last: ContentPage<T>, pages: ContentPage<T>[]) =>
  nextPageAfter(
    pages.map((p) => p.content),
    last.totalElements,
  );

export type QuestionFilter = Pick<
  FacaPageQuery,
  'snCode' | 'warningContent' | 'workmanship' | 'facaStatus'
>;

export const useQuestionPages = (filter: QuestionFilter) =>
  useInfiniteQuery({
    queryKey: queryKeys.faca.list(filter),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      call(
        facaApi.facaInfoPage,
        { ...filter, pageNum: pageParam, pageSize: PAGE_SIZE.faca },
        { signal },
      ),
    getNextPageParam: nextPage,
  });

export type TaskFilter = Pick<TaskPageQuery, 'snCode' | 'taskStatus' | 'treatment'>;

export const useTaskPages = (filter: TaskFilter) =>
  useInfiniteQuery({
    queryKey: queryKeys.faca.tasks(filter),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      call(
        facaApi.taskPage,
        { ...filter, pageNum: pageParam, pageSize: PAGE_SIZE.faca },
        { signal },
      ),
    getNextPageParam: nextPage,
  });

export const useQuestion = (id: number | null) =>
  useQuery({
    queryKey: queryKeys.faca.question(id ?? 0),
    enabled: id !== null,
    queryFn: ({ signal }) => call(facaApi.getFacaById, { facaInfoId: id! }, { signal }),
  });

/** Process types and influence parameters (spec: pageSize 1000, content items name). */
export const useOptions = (kind: 'workmanship' | 'influence') =>
  useQuery({
    queryKey: queryKeys.faca.options(kind),
    staleTime: 10 * 60_000,
    queryFn: ({ signal }) =>
      call(
        kind === 'workmanship' ? facaApi.getWorkmanshipPage : facaApi.getInfluenceParametersPage,
        { pageNum: 1, pageSize: PAGE_SIZE.options },
        { signal },
      ),
  });

/** A Selector's options from a page of process types or influence parameters, by name. */
export const nameOptions = (page: ContentPage<NamedOption> | undefined) =>
  (page?.content ?? []).map((o) => ({ label: o.name, value: o.name }));

export const useHandlers = (snCode: string | null) =>
  useQuery({
    queryKey: queryKeys.faca.handlers(snCode ?? ''),
    enabled: !!snCode,
    queryFn: ({ signal }) => call(facaApi.getHandlerList, { snCode: snCode! }, { signal }),
  });

/** A save of any FACA form: on success every FACA query is fetched again. */
export const useSave = <Input, Reply>(endpoint: Endpoint<Input, Reply>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) => call(endpoint, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.faca.all }),
  });
};
