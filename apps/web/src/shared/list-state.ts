import { nextPageAfter } from '@linewatch/contracts/rules/paging';

/** What a paged list shows below its items. */
export type ListStateKind = 'loading' | 'empty' | 'noResult' | 'end' | 'error' | 'more';

export interface PagedListFlags {
  itemCount: number;
  isPending: boolean;
  isError: boolean;
  /**
   * The failure is a refresh's, of a list that had loaded (TanStack's isRefetchError: not a first
   * load, not a next page): its rows stay on screen as they were, with no retry row in their place;
   * the offline banner, or the failure's toast, says why they are not fresher.
   */
  isRefetchError?: boolean;
  isFetchingNextPage: boolean;
  hasNextPage: boolean;
  /** A search term is active: an empty list reads 查无数据 instead of 暂无数据. */
  searching: boolean;
}

export const listStateOf = (flags: PagedListFlags): ListStateKind => {
  if (flags.isPending || flags.isFetchingNextPage) return 'loading';
  if (flags.isError && !flags.isRefetchError) return 'error';
  if (flags.itemCount === 0) return flags.searching ? 'noResult' : 'empty';
  return flags.hasNextPage ? 'more' : 'end';
};

/**
 * The page after the last one of a list that answers `{ data, totalNum }` (the subscription list,
 * the selector's SN chunks, the inbox), or undefined when it has all of them.
 */
export const nextPageByTotalNum = (
  last: { data: readonly unknown[]; totalNum: number },
  pages: readonly { data: readonly unknown[] }[],
): number | undefined =>
  nextPageAfter(
    pages.map((p) => p.data),
    last.totalNum,
  );
