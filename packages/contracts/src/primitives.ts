import { z } from 'zod';

/*
 * The building blocks every request, socket and MQTT schema uses for text and dates, so that
 * nothing the contracts accept is refused later by the database (a NUL in text, 2026-02-30 as a
 * date): those refusals surfaced as HTTP 500 or as a flush that failed for every gateway.
 */
export const primitiveMessages = {
  controlCharacter: '不能包含控制字符',
  badDate: '日期格式应为 YYYY-MM-DD 且为有效日期',
} as const;

// C0/C1 controls (NUL included) and lone surrogates, which UTF-8 cannot carry.
const UNSAFE_TEXT = /[\p{Cc}\p{Cs}]/u;

/** Text without control characters (PostgreSQL refuses NUL; the rest has no place in a label). */
export const text = (message: string = primitiveMessages.controlCharacter) =>
  z.string().refine((value) => !UNSAFE_TEXT.test(value), message);

/** True for YYYY-MM-DD naming a day of the proleptic Gregorian calendar from year 1. */
export const isCalendarDate = (value: string): boolean => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
};

/** A real calendar date as YYYY-MM-DD: 2026-02-30, 2025-02-29 and 0000-00-00 are refused. */
export const calendarDate = (message: string = primitiveMessages.badDate) =>
  z.string().refine(isCalendarDate, message);
