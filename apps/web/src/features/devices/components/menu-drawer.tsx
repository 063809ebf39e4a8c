import type { MenuNode } from '@linewatch/contracts/devices';
import { Popup } from 'antd-mobile';
import { ListState } from '../../../shared/components/list-state.tsx';
import { sameSelection, type MenuSelection } from '../groups.ts';
import styles from './menu-drawer.module.css';

interface MenuDrawerProps {
  visible: boolean;
  menu: readonly MenuNode[] | undefined;
  failed: boolean;
  selection: MenuSelection;
  onRetry: () => void;
  onSelect: (selection: MenuSelection) => void;
  onClose: () => void;
}

const entryOf = ({ kind, text, produceLine, produceGroup }: MenuNode): MenuSelection => ({
  kind,
  text,
  produceLine,
  produceGroup,
});

/** The left menu: 全部, 我的关注, then each production line with its product groups. */
export const MenuDrawer = ({
  visible,
  menu,
  failed,
  selection,
  onRetry,
  onSelect,
  onClose,
}: MenuDrawerProps) => {
  const item = (node: MenuNode, nested: boolean) => {
    const entry = entryOf(node);
    const active = sameSelection(entry, selection);
    return (
      <button
        key={`${node.kind}:${node.produceLine ?? ''}:${node.produceGroup ?? ''}:${node.text}`}
        type="button"
        className={`${styles.item} ${nested ? styles.nested : ''} ${active ? styles.active : ''}`}
        data-testid="menu-item"
        data-kind={node.kind}
        data-active={active}
        onClick={() => onSelect(entry)}
      >
        <span className={styles.text}>{node.text}</span>
        <span className={styles.count}>{node.count}</span>
      </button>
    );
  };

  let body;
  if (menu) {
    body = menu.flatMap((node) => [
      item(node, false),
      ...(node.children ?? []).map((child) => item(child, true)),
    ]);
  } else {
    body = <ListState state={failed ? 'error' : 'loading'} onRetry={onRetry} />;
  }

  return (
    <Popup
      visible={visible}
      position="left"
      onMaskClick={onClose}
      onClose={onClose}
      bodyClassName={styles.drawer}
      data-testid="menu-drawer"
    >
      <div className={styles.heading}>产线菜单</div>
      <nav className={styles.list}>{body}</nav>
    </Popup>
  );
};
