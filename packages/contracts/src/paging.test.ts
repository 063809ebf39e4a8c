import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contentPageReply, pageNumberField, pageReply, pageSizeField } from './paging.ts';
import { MAX_PAGE_SIZE, nextPageAfter, pageCount, pagingMessages } from './rules/paging.ts';

const messageOf = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? null : result.error.issues[0]!.message;
};

describe('the page number', () => {
  const field = pageNumberField();

  it('is a whole number from 1, the first page when left out', () => {
    expect(field.parse(undefined)).toBe(1);
    expect(field.parse('3')).toBe(3);
    for (const bad of ['0', '-1', '1.5', 'x', String(2 ** 53)])
      expect(messageOf(field, bad), bad).toBe(pagingMessages.badPage);
  });
});

describe('the page size', () => {
  it('is 1 to 100, the list size when left out', () => {
    const field = pageSizeField(15);
    expect(field.parse(undefined)).toBe(15);
    expect(field.parse(String(MAX_PAGE_SIZE))).toBe(MAX_PAGE_SIZE);
    for (const bad of ['0', '101', 'x'])
      expect(messageOf(field, bad), bad).toBe(pagingMessages.badPageSize);
  });

  it('takes a list its own largest page and its own words', () => {
    const field = pageSizeField(5, { max: 1000, message: pagingMessages.badPage });
    expect(field.parse('1000')).toBe(1000);
    expect(messageOf(field, '1001')).toBe(pagingMessages.badPage);
    // null: zod's words, as the subscription and inbox lists have always answered.
    const plain = pageSizeField(20, { message: null });
    expect(messageOf(plain, '101')).not.toBe(pagingMessages.badPageSize);
  });
});

describe('the page replies and the page count', () => {
  it('carry the items and the total', () => {
    expect(pageReply(z.number()).parse({ data: [1], total: 1 })).toEqual({ data: [1], total: 1 });
    expect(contentPageReply(z.number()).parse({ content: [], totalElements: 0 })).toEqual({
      content: [],
      totalElements: 0,
    });
  });

  it('loads the next page until the total is reached or a page comes back empty', () => {
    expect(nextPageAfter([[1, 2]], 5)).toBe(2);
    expect(nextPageAfter([[1, 2], [3, 4], [5]], 5)).toBeUndefined();
    expect(nextPageAfter([[1, 2], []], 5)).toBeUndefined();
    expect(nextPageAfter([[]], 0)).toBeUndefined();
  });

  it('shows at least one page', () => {
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(20, 20)).toBe(1);
    expect(pageCount(21, 20)).toBe(2);
  });
});
