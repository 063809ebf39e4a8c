import type { MenuNode } from '@linewatch/contracts/devices';
import { describe, expect, it } from 'vitest';
import { ALL, groupsFor } from './groups.ts';

const menu: MenuNode[] = [
  { kind: 'all', text: '全部', count: 9 },
  { kind: 'follow', text: '我的关注', count: 2 },
  {
    kind: 'line',
    text: '一号产线',
    produceLine: 'L1',
    count: 6,
    children: [{ kind: 'group', text: '点胶', produceLine: 'L1', produceGroup: 'G1', count: 4 }],
  },
  { kind: 'line', text: '二号产线', produceLine: 'L2', count: 3, children: [] },
];

describe('device list groups', () => {
  it('makes one group per production line for 全部', () => {
    expect(groupsFor(menu, ALL, 'SN')).toEqual([
      { key: 'line:L1', title: '一号产线', count: 6, filter: { produceLine: 'L1', nameTag: 'SN' } },
      { key: 'line:L2', title: '二号产线', count: 3, filter: { produceLine: 'L2', nameTag: 'SN' } },
    ]);
  });

  it('asks for followed machines under 我的关注', () => {
    expect(groupsFor(menu, { kind: 'follow', text: '我的关注' }, '')).toEqual([
      { key: 'follow', title: '我的关注', count: 2, filter: { isFollow: '1', nameTag: '' } },
    ]);
  });

  it('narrows to one line, or to one product group of a line', () => {
    expect(
      groupsFor(menu, { kind: 'line', text: '二号产线', produceLine: 'L2' }, '').map((g) => g.key),
    ).toEqual(['line:L2']);
    const [group] = groupsFor(
      menu,
      { kind: 'group', text: '点胶', produceLine: 'L1', produceGroup: 'G1' },
      '',
    );
    expect(group).toMatchObject({
      title: '一号产线 / 点胶',
      count: 4,
      filter: { produceLine: 'L1', produceGroup: 'G1', nameTag: '' },
    });
  });

  it('shows nothing for a menu entry that has gone away', () => {
    expect(groupsFor(menu, { kind: 'line', text: '旧产线', produceLine: 'L9' }, '')).toEqual([]);
  });
});
