import { z } from 'zod';
import { isCalendarDate } from './calendar.ts';
import { primitiveMessages } from './primitive-messages.ts';

// The messages live in a zod-free file: pages that show one do not load zod for it.
export { isCalendarDate, primitiveMessages };

/*
 * The building blocks every request, socket and MQTT schema uses for text and dates, so that
 * nothing the contracts accept is refused later by the database (a NUL in text, 2026-02-30 as a
 * date): those refusals surfaced as HTTP 500 or as a flush that failed for every gateway.
 */

// C0/C1 controls (NUL included; \p{Cc}) and lone surrogates, which UTF-8 cannot carry (\p{Cs}),
// spelt as ranges so that its source, in the JSON Schemas (`text()`), reads in other regex engines.
// eslint-disable-next-line no-control-regex -- matching control characters is its purpose
const UNSAFE_TEXT = /[\u0000-\u001f\u007f-\u009f\ud800-\udfff]/u;

/**
 * zod's `error` option of a required field: `message` when it is left out (undefined, or null: an
 * empty sheet cell, a form that sent nothing), zod's own wording for a value of another type. Without
 * it a missing field reads 无效输入：期望 string，实际接收 undefined (required-messages.test.ts).
 */
export const whenMissing = (message: string) => ({
  error: (issue: { input?: unknown }) => (issue.input == null ? message : undefined),
});

/**
 * Text without control characters (PostgreSQL refuses NUL; the rest has no place in a label);
 * `missing`: the message when a required field is left out.
 */
export const text = (message: string = primitiveMessages.controlCharacter, missing?: string) =>
  z
    .string(missing === undefined ? undefined : whenMissing(missing))
    .refine((value) => !UNSAFE_TEXT.test(value), message)
    // The refinement's JSON Schema form, which z.toJSONSchema cannot derive from a function: the
    // server's compiled MQTT check and docs/protocol/schemas/ say it too (docs/architecture.md, 5).
    .meta({ not: { pattern: UNSAFE_TEXT.source } });

/** A real calendar date as YYYY-MM-DD: 2026-02-30, 2025-02-29 and 0000-00-00 are refused. */
export const calendarDate = (message: string = primitiveMessages.badDate, missing?: string) =>
  z
    .string(missing === undefined ? undefined : whenMissing(missing))
    .refine(isCalendarDate, message);

/**
 * The SN alphabet, one rule for every way a machine's SN enters the product (admin forms, the
 * sheet import, bind, the gateways' MQTT messages): an SN is part of MQTT payloads, socket paths
 * and the agent's files, and one the admin pages accept must be one a gateway can report.
 */
export const SN_CODE = /^[A-Za-z0-9_-]{1,64}$/;

/** An SN as a person types it (trimmed); `required`: the message when it is left empty. */
export const snCode = (required: string) =>
  z
    .string(whenMissing(required))
    .trim()
    .min(1, required)
    .max(64, primitiveMessages.snTooLong)
    .regex(SN_CODE, primitiveMessages.snInvalid);
