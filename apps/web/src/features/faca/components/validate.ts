import { toastFailure } from '../../../shared/toast.ts';

/** What the page needs of a contract schema (zod's safeParse), without importing zod here. */
interface Schema<T> {
  safeParse(
    values: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
}

/**
 * Checks a form with the contract's schema (the server runs the same one): the parsed input, or
 * null after toasting the first Chinese message.
 */
export const validated = <T>(schema: Schema<T>, values: unknown): T | null => {
  const result = schema.safeParse(values);
  if (result.success) return result.data;
  toastFailure(result.error.issues[0]?.message ?? '参数错误');
  return null;
};
