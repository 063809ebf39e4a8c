import { z } from 'zod';
import { isCalendarDate } from './calendar.ts';

export { isCalendarDate };

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

/** A real calendar date as YYYY-MM-DD: 2026-02-30, 2025-02-29 and 0000-00-00 are refused. */
export const calendarDate = (message: string = primitiveMessages.badDate) =>
  z.string().refine(isCalendarDate, message);
