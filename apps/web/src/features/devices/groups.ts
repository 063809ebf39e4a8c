import type { MenuNode } from '@linewatch/contracts/devices';
import { deviceStatusLabels, type DeviceStatus } from '@linewatch/contracts/rules/machine-states';
import type { MachineFilter } from './api.ts';

/** The menu entry the list is narrowed to. */
export type MenuSelection = Pick<MenuNode, 'kind' | 'text' | 'produceLine' | 'produceGroup'>;

export const ALL: MenuSelection = { kind: 'all', text: '全部' };

export interface GroupSpec {
  key: string;
  title: string;
  count: number;
  filter: MachineFilter;
}

const lineGroup = (line: MenuNode, nameTag: string): GroupSpec => ({
  key: `line:${line.produceLine ?? line.text}`,
  title: line.text,
  count: line.count,
  filter: { produceLine: line.produceLine ?? line.text, nameTag },
});

/** One collapsible group per production line, narrowed by the left menu. */
export const groupsFor = (
  menu: readonly MenuNode[],
  selection: MenuSelection,
  nameTag: string,
): GroupSpec[] => {
  const lines = menu.filter((node) => node.kind === 'line');
  switch (selection.kind) {
    case 'all':
      return lines.map((line) => lineGroup(line, nameTag));
    case 'follow': {
      const follow = menu.find((node) => node.kind === 'follow');
      return [
        {
          key: 'follow',
          title: selection.text,
          count: follow?.count ?? 0,
          filter: { isFollow: '1', nameTag },
        },
      ];
    }
    case 'line': {
      const line = lines.find((node) => node.produceLine === selection.produceLine);
      return line ? [lineGroup(line, nameTag)] : [];
    }
    case 'group': {
      const line = lines.find((node) => node.produceLine === selection.produceLine);
      const group = line?.children?.find((node) => node.produceGroup === selection.produceGroup);
      if (!line || !group) return [];
      return [
        {
          key: `group:${line.produceLine}/${group.produceGroup}`,
          title: `${line.text} / ${group.text}`,
          count: group.count,
          filter: { produceLine: line.produceLine, produceGroup: group.produceGroup, nameTag },
        },
      ];
    }
  }
};

export const sameSelection = (a: MenuSelection, b: MenuSelection): boolean =>
  a.kind === b.kind && a.produceLine === b.produceLine && a.produceGroup === b.produceGroup;

/** What the left menu's choice narrows a single result list to. */
export const selectionFilter = (selection: MenuSelection): MachineFilter => {
  switch (selection.kind) {
    case 'all':
      return {};
    case 'follow':
      return { isFollow: '1' };
    case 'line':
      return { produceLine: selection.produceLine };
    case 'group':
      return { produceLine: selection.produceLine, produceGroup: selection.produceGroup };
  }
};

/**
 * A search or a status filter shows one list of results (in line order, faults first) rather
 * than one per line: one 查无数据 when nothing matches, one refusal when the SN is not the user's.
 */
export const resultGroup = (
  selection: MenuSelection,
  nameTag: string,
  status: DeviceStatus | null,
): GroupSpec => ({
  key: 'result',
  title: [
    selection.kind === 'all' ? null : selection.text,
    status ? deviceStatusLabels[status] : null,
    nameTag ? `搜索“${nameTag}”` : null,
  ]
    .filter(Boolean)
    .join(' · '),
  count: 0,
  filter: {
    ...selectionFilter(selection),
    ...(nameTag ? { nameTag } : {}),
    ...(status ? { deviceStatus: status } : {}),
  },
});
