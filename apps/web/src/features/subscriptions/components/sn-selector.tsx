import { Popup, SearchBar } from 'antd-mobile';
import { ListState } from '../../../shared/components/list-state.tsx';
import type { ListStateKind } from '../../../shared/list-state.ts';
import { SubscribedTag } from './subscribed-tag.tsx';
import styles from './sn-selector.module.css';

interface SnSelectorProps {
  open: boolean;
  text: string;
  onText: (text: string) => void;
  items: readonly { label: string; value: string }[];
  followed: ReadonlySet<string>;
  state: ListStateKind;
  onRetry: () => void;
  onLoadMore: () => void;
  onClose: () => void;
  onPick: (sn: string) => void;
}

/**
 * The SN selector's popup: a searchable list loading 20 per chunk; the machines the user follows
 * are tagged. The page holds its search and queries (their delays are the spec's), this only shows
 * them, from its first opening on.
 */
export const SnSelector = ({
  open,
  text,
  onText,
  items,
  followed,
  state,
  onRetry,
  onLoadMore,
  onClose,
  onPick,
}: SnSelectorProps) => (
  <Popup visible={open} onMaskClick={onClose} bodyStyle={{ height: '60vh' }}>
    <div className={styles.selector} role="dialog" aria-label="搜索SN码" data-testid="sn-selector">
      <SearchBar placeholder="输入SN码搜索" value={text} onChange={onText} />
      <div className={styles.selectorList}>
        <div role="listbox" aria-label="SN码">
          {items.map((item) => (
            <div
              key={item.value}
              className={styles.selectorItem}
              role="option"
              aria-selected={false}
              onClick={() => onPick(item.value)}
              data-testid="sn-option"
            >
              {item.label}
              {followed.has(item.value) ? <SubscribedTag /> : null}
            </div>
          ))}
        </div>
        <ListState state={state} onRetry={onRetry} onLoadMore={onLoadMore} />
      </div>
    </div>
  </Popup>
);
