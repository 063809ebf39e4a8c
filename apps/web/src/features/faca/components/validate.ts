import type { z } from 'zod';
import { toastFailure } from '../../../shared/toast.ts';

/**
 * Checks a form with the contract's schema (the server runs the same one): the parsed input, or
 * null after toasting the first Chinese message.
 */
export const validated = <S extends z.ZodType>(schema: S, values: unknown): z.output<S> | null => {
  const result = schema.safeParse(values);
  if (result.success) return result.data;
  toastFailure(result.error.issues[0]?.message ?? '参数错误');
  return null;
};
