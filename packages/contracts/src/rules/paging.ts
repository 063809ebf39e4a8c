/*
 * Paging, zod-free: the page sizes of each list, the page-number and page-size rules and their
 * messages, and the two page shapes the lists reply with. The query schemas are built from these
 * in paging.ts; the screens ask for these sizes.
 */

/** Page sizes (docs/product.md section 9); `admin`: the admin lists (machines, audit). */
export const PAGE_SIZE = {
  deviceList: 15,
  statistics: 5,
  stopAlarm: 11,
  subscription: 20,
  faca: 5,
  options: 1000,
  admin: 20,
} as const;

/**
 * Page numbers are whole numbers from 1 (the first page); a page holds 1 to 100 items, the FACA
 * option lists excepted (up to PAGE_SIZE.options).
 */
export const MAX_PAGE_SIZE = 100;

export const pagingMessages = {
  badPage: '页码必须是正整数',
  badPageSize: '每页条数应为 1 到 100 的整数',
} as const;

/** How many pages `total` items fill, at least one (an empty list still shows page 1). */
export const pageCount = (total: number, pageSize: number): number =>
  Math.max(1, Math.ceil(total / pageSize));

/**
 * The page to load after `pages` (each page's items, in order) of a list of `total` items, or
 * undefined when it has them all; an empty page also ends it (the list shrank meanwhile).
 */
export const nextPageAfter = (
  pages: readonly (readonly unknown[])[],
  total: number,
): number | undefined => {
  const last = pages.at(-1) ?? [];
  const loaded = pages.reduce((n, page) => n + page.length, 0);
  return last.length > 0 && loaded < total ? pages.length + 1 : undefined;
};

/** A page of the admin lists: its items and how many there are in all. */
export interface Page<T> {
  data: T[];
  total: number;
}

/** A page of the FACA lists, in the spec's names (section 7: content, totalElements). */
export interface ContentPage<T> {
  content: T[];
  totalElements: number;
}
