import { describe, expect, it } from 'vitest';
import {
  CA_STATUS,
  CA_STATUSES,
  caStatusLabels,
  caStatusTones,
  needsNgReason,
  TASK_STATUSES,
  taskStatusLabels,
  taskStatusOf,
} from './ca-statuses.ts';

describe('CA statuses (docs/product.md section 4, both readings)', () => {
  it('reads the codes as the edit form does: 0 pending, 1 OK, 2 NG', () => {
    expect(CA_STATUSES.map((s) => caStatusLabels[s])).toEqual(['未处理', 'OK', 'NG']);
    expect(CA_STATUS).toEqual({ pending: 0, ok: 1, ng: 2 });
  });

  it('colours the words as the FACA view does: OK green, NG yellow', () => {
    expect(caStatusTones[CA_STATUS.ok]).toBe('success');
    expect(caStatusTones[CA_STATUS.ng]).toBe('warning');
    expect(caStatusTones[CA_STATUS.pending]).toBe('default');
  });

  it('asks an NG reason for status 2 only', () => {
    expect(CA_STATUSES.filter(needsNgReason)).toEqual([2]);
  });
});

describe('task statuses', () => {
  it('are pending until the CA has a result', () => {
    expect(CA_STATUSES.map(taskStatusOf)).toEqual([0, 1, 1]);
    expect(TASK_STATUSES.map((s) => taskStatusLabels[s])).toEqual(['待处理', '已完成']);
  });
});
