import { describe, expect, it } from 'vitest';
import { listStateOf, nextPageByTotalNum, type PagedListFlags } from './list-state.ts';

const flags = (overrides: Partial<PagedListFlags>): PagedListFlags => ({
  itemCount: 0,
  isPending: false,
  isError: false,
  isFetchingNextPage: false,
  hasNextPage: false,
  searching: false,
  ...overrides,
});

describe('list state', () => {
  it('is loading while the first or next page loads', () => {
    expect(listStateOf(flags({ isPending: true }))).toBe('loading');
    expect(listStateOf(flags({ itemCount: 15, hasNextPage: true, isFetchingNextPage: true }))).toBe(
      'loading',
    );
  });

  it('offers a retry after a failure', () => {
    expect(listStateOf(flags({ isError: true }))).toBe('error');
    expect(listStateOf(flags({ isError: true, itemCount: 15, hasNextPage: true }))).toBe('error');
  });

  it('keeps the rows of a refresh that failed: no retry row in their place (issue 25)', () => {
    // The last answer stays on screen; the offline banner (or the failure's toast) says why.
    expect(listStateOf(flags({ isError: true, isRefetchError: true, itemCount: 15 }))).toBe('end');
    expect(
      listStateOf(flags({ isError: true, isRefetchError: true, itemCount: 15, hasNextPage: true })),
    ).toBe('more');
    // A refresh of a list that was empty has nothing to keep: an empty list, not an error.
    expect(listStateOf(flags({ isError: true, isRefetchError: true }))).toBe('empty');
  });

  it('tells an empty list from a search without hits', () => {
    expect(listStateOf(flags({}))).toBe('empty');
    expect(listStateOf(flags({ searching: true }))).toBe('noResult');
  });

  it('asks for more until the last page, then ends', () => {
    expect(listStateOf(flags({ itemCount: 15, hasNextPage: true }))).toBe('more');
    expect(listStateOf(flags({ itemCount: 20 }))).toBe('end');
  });

  it('pages a { data, totalNum } list until it holds totalNum rows, or a page comes back empty', () => {
    const page = (n: number, totalNum: number) => ({ data: Array.from({ length: n }), totalNum });
    expect(nextPageByTotalNum(page(20, 45), [page(20, 45)])).toBe(2);
    expect(nextPageByTotalNum(page(20, 45), [page(20, 45), page(20, 45)])).toBe(3);
    expect(nextPageByTotalNum(page(5, 45), [page(20, 45), page(20, 45), page(5, 45)])).toBe(
      undefined,
    );
    // Rows went away meanwhile: an empty page ends the list rather than asking forever.
    expect(nextPageByTotalNum(page(0, 45), [page(20, 45), page(0, 45)])).toBe(undefined);
  });
});
