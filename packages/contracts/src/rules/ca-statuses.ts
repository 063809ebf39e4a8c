/*
 * CA statuses, zod-free. A CA's status is its task's treatment: 0 pending (未处理), then the
 * handler's result. docs/product.md section 4 gives codes 1 and 2 two readings: the edit form reads 1 OK,
 * 2 NG; the FACA view reads 1 NG (yellow), 2 OK (green). Both are mapped here, once: the codes
 * and words are the edit form's (what the forms write is what the views show, and "NG reason is
 * required when status equals 2" agrees), the colours the FACA view's, kept with the word they
 * colour (OK green, NG yellow).
 */

/** The edit form's reading of the codes (docs/product.md section 4), the one the product uses. */
export const CA_STATUS = { pending: 0, ok: 1, ng: 2 } as const;
export type CaStatus = (typeof CA_STATUS)[keyof typeof CA_STATUS];
/** Every CA status, in the pickers' order. */
export const CA_STATUSES = [CA_STATUS.pending, CA_STATUS.ok, CA_STATUS.ng] as const;

/** By code; a reply carries a plain number, so any number may be asked (undefined: none). */
export const caStatusLabels: Readonly<Record<number, string>> = {
  [CA_STATUS.pending]: '未处理',
  [CA_STATUS.ok]: 'OK',
  [CA_STATUS.ng]: 'NG',
} satisfies Record<CaStatus, string>;

/** The FACA view's reading gives the colours: OK green, NG yellow; pending is grey. */
type Tone = 'default' | 'success' | 'warning';
export const caStatusTones: Readonly<Record<number, Tone>> = {
  [CA_STATUS.pending]: 'default',
  [CA_STATUS.ok]: 'success',
  [CA_STATUS.ng]: 'warning',
} satisfies Record<CaStatus, Tone>;

/** docs/product.md section 5: an NG result needs its reason (请输入NG原因). */
export const needsNgReason = (status: number): boolean => status === CA_STATUS.ng;

/** A task's status: pending until its CA has a result, then completed. */
export const TASK_STATUS = { pending: 0, completed: 1 } as const;
export type TaskStatus = (typeof TASK_STATUS)[keyof typeof TASK_STATUS];
export const TASK_STATUSES = [TASK_STATUS.pending, TASK_STATUS.completed] as const;
export const taskStatusLabels: Readonly<Record<number, string>> = {
  [TASK_STATUS.pending]: '待处理',
  [TASK_STATUS.completed]: '已完成',
} satisfies Record<TaskStatus, string>;
export const taskStatusOf = (caStatus: number): TaskStatus =>
  caStatus === CA_STATUS.pending ? TASK_STATUS.pending : TASK_STATUS.completed;
