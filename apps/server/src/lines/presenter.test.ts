import { describe, expect, it } from 'vitest';
import { presentLine } from './presenter.ts';

describe('lines presenter', () => {
  it('a line with no groups and no machines says so with zeros and an empty list', () => {
    expect(presentLine({ id: 1, name: 'SMT1', sort: 0, machines: 0, groups: [] })).toEqual({
      id: 1,
      name: 'SMT1',
      sort: 0,
      machineCount: 0,
      groups: [],
    });
  });

  it('counts machines per line and per group; a group is shown without its line id', () => {
    expect(
      presentLine({
        id: 2,
        name: 'SMT2',
        sort: 3,
        machines: 5,
        groups: [{ id: 9, lineId: 2, name: '主板', machines: 4 }],
      }),
    ).toEqual({
      id: 2,
      name: 'SMT2',
      sort: 3,
      machineCount: 5,
      groups: [{ id: 9, name: '主板', machineCount: 4 }],
    });
  });
});
