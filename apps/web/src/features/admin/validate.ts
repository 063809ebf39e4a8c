import { toastFailure } from '../../shared/toast.ts';

/** What validate needs of a contract schema (a zod schema, without naming zod here). */
interface Schema<T> {
  safeParse(
    values: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
}

/** The contract schema's first Chinese message as a toast (the server checks again), or the data. */
export const validate = <T>(schema: Schema<T>, values: unknown): T | null => {
  const parsed = schema.safeParse(values);
  if (parsed.success) return parsed.data;
  toastFailure(parsed.error.issues[0]?.message ?? '参数错误');
  return null;
};

/** The admin schemas, loaded with the first admin page (zod stays off the first screen). */
export const adminSchemas = () => import('@linewatch/contracts/admin');
