/*
 * A FACA question's status flags (docs/product.md section 3), zod-free. A question holds several at once:
 * 0 unhandled (no FA yet), 1 FACA (at least one FA), 2 unassigned (a CA without handler), 3
 * overdue (a CA past its due date, its task not completed).
 */

export const FACA_STATUS = { unhandled: 0, faca: 1, unassigned: 2, overdue: 3 } as const;
export type FacaStatus = (typeof FACA_STATUS)[keyof typeof FACA_STATUS];
/** Every flag, in the filter's order. */
export const FACA_STATUSES = [
  FACA_STATUS.unhandled,
  FACA_STATUS.faca,
  FACA_STATUS.unassigned,
  FACA_STATUS.overdue,
] as const;

/** By code; a reply carries plain numbers, so any number may be asked (undefined: none). */
export const facaStatusLabels: Readonly<Record<number, string>> = {
  [FACA_STATUS.unhandled]: '未处理',
  [FACA_STATUS.faca]: 'FACA',
  [FACA_STATUS.unassigned]: '未分配',
  [FACA_STATUS.overdue]: '任务逾期',
} satisfies Record<FacaStatus, string>;

type Tone = 'default' | 'primary' | 'warning' | 'danger';
export const facaStatusTones: Readonly<Record<number, Tone>> = {
  [FACA_STATUS.unhandled]: 'default',
  [FACA_STATUS.faca]: 'primary',
  [FACA_STATUS.unassigned]: 'warning',
  [FACA_STATUS.overdue]: 'danger',
} satisfies Record<FacaStatus, Tone>;
