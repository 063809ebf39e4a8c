import { describe, expect, it } from 'vitest';
import { FACA_STATUSES, facaStatusLabels, facaStatusTones } from './question-statuses.ts';

describe('question status flags (docs/product.md section 3)', () => {
  it('are 0 unhandled, 1 FACA, 2 unassigned, 3 overdue, each with its word and colour', () => {
    expect(FACA_STATUSES.map((s) => facaStatusLabels[s])).toEqual([
      '未处理',
      'FACA',
      '未分配',
      '任务逾期',
    ]);
    expect(FACA_STATUSES.map((s) => facaStatusTones[s])).toEqual([
      'default',
      'primary',
      'warning',
      'danger',
    ]);
  });
});
