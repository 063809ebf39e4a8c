import { z } from 'zod';
import { MAX_PAGE_SIZE, pagingMessages } from './rules/paging.ts';

/*
 * The paging fields of every list query and the page replies, built from rules/paging.ts (which
 * the screens read without zod).
 */

/** A page number (pageIndex, pageNumber or pageNum, as each call names it): 1 when left out. */
export const pageNumberField = () =>
  z.coerce
    .number({ error: pagingMessages.badPage })
    .int(pagingMessages.badPage)
    .min(1, pagingMessages.badPage)
    .default(1);

interface PageSizeOptions {
  /** The largest page: MAX_PAGE_SIZE unless the list says otherwise. */
  max?: number;
  /**
   * What a bad size says: badPageSize unless the list says otherwise. null: zod's own words
   * (the subscription and inbox lists, as they have always answered).
   */
  message?: string | null;
}

/** A page size, `fallback` when left out (the list's PAGE_SIZE). */
export const pageSizeField = (
  fallback: number,
  { max = MAX_PAGE_SIZE, message = pagingMessages.badPageSize }: PageSizeOptions = {},
) => {
  const error = message ?? undefined;
  return z.coerce
    .number(error === undefined ? undefined : { error })
    .int(error)
    .min(1, error)
    .max(max, error)
    .default(fallback);
};

/** The reply of an admin list: rules/paging.ts Page. */
export const pageReply = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), total: z.number() });

/** The reply of a FACA list: rules/paging.ts ContentPage. */
export const contentPageReply = <T extends z.ZodType>(item: T) =>
  z.object({ content: z.array(item), totalElements: z.number() });
