import { nextPageAfter, PAGE_SIZE } from '@linewatch/contracts/rules/paging';
import type { StatisticsQuery, StatisticsReply } from '@linewatch/contracts/statistics';
import { statisticsApi } from '@linewatch/contracts/statistics-api';
import { statisticsMessages } from '@linewatch/contracts/statistics-rules';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { call, failingWith } from '../../shared/api-client.ts';
import { queryKeys } from '../../shared/query-keys.ts';

export const useProductLines = () =>
  useQuery({
    queryKey: queryKeys.statistics.lines(),
    queryFn: ({ signal }) =>
      failingWith(statisticsMessages.lineFailed, call(statisticsApi.productLines, {}, { signal })),
  });

export const useProductGroups = (productLine: string) =>
  useQuery({
    queryKey: queryKeys.statistics.groups(productLine),
    enabled: productLine !== '',
    queryFn: ({ signal }) =>
      failingWith(
        statisticsMessages.groupFailed,
        call(statisticsApi.productGroups, { productLine }, { signal }),
      ),
  });

export type StatisticsSearch = Omit<StatisticsQuery, 'pageIndex' | 'pageSize'>;

export const loadedRows = (pages: readonly StatisticsReply[]): number =>
  pages.reduce((sum, page) => sum + page.data.length, 0);

/** The result cards, five a page (docs/product.md section 9), once a search was made. */
export const useStatisticsPages = (search: StatisticsSearch | null) =>
  useInfiniteQuery({
    queryKey: queryKeys.statistics.list(search ?? {}),
    enabled: search !== null,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      call(
        statisticsApi.statistics,
        { ...search, pageIndex: pageParam, pageSize: PAGE_SIZE.statistics },
        { signal },
      ),
    getNextPageParam: (last, pages) =>
      nextPageAfter(
        pages.map((p) => p.data),
        last.total,
      ),
  });
