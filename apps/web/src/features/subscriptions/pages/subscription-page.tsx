import { subscriptionMessages, type FollowRow } from '@linewatch/contracts/subscriptions';
import { Button, Checkbox, NavBar, Picker, Popup, SearchBar, SwipeAction, Tag } from 'antd-mobile';
import { useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { ListState } from '../../../shared/components/list-state.tsx';
import { formatPercent } from '../../../shared/format.ts';
import { listStateOf } from '../../../shared/list-state.ts';
import { links } from '../../../shared/paths.ts';
import { toastFailure } from '../../../shared/toast.ts';
import { useDebouncedValue } from '../../../shared/use-debounced-value.ts';
import {
  useCancelFollow,
  useFollowPages,
  useProductGroups,
  useSnCodeChunks,
  useUserDict,
} from '../api.ts';
import styles from './subscription-page.module.css';

/** Spec section 9: search debounce 1000 ms, search-open debounce 500 ms. */
const SEARCH_DEBOUNCE_MS = 1000;
const OPEN_DEBOUNCE_MS = 500;

const figure = (value: number | null, target: number, percent = false) =>
  `${value === null ? '—' : percent ? formatPercent(value) : value} / ${percent ? formatPercent(target) : target}`;

const SubscribedTag = () => (
  <Tag color="success" className={styles.tag}>
    已订阅
  </Tag>
);

/** The SN selector: a searchable list loading 20 per chunk; the machines the user follows are tagged. */
const SnSelector = ({
  open,
  onClose,
  onPick,
}: {
  open: boolean;
  onClose: () => void;
  onPick: (sn: string) => void;
}) => {
  const [text, setText] = useState('');
  const search = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  const opened = useDebouncedValue(open, OPEN_DEBOUNCE_MS);
  const chunks = useSnCodeChunks(search, open && opened);
  const followed = useUserDict(search, open && opened);
  const followedSns = new Set(followed.data?.map((d) => d.value));
  const items = chunks.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <Popup visible={open} onMaskClick={onClose} bodyStyle={{ height: '60vh' }}>
      <div className={styles.selector} data-testid="sn-selector">
        <SearchBar placeholder="输入SN码搜索" value={text} onChange={setText} />
        <div className={styles.selectorList}>
          {items.map((item) => (
            <div
              key={item.value}
              className={styles.selectorItem}
              onClick={() => onPick(item.value)}
              data-testid="sn-option"
            >
              {item.label}
              {followedSns.has(item.value) ? <SubscribedTag /> : null}
            </div>
          ))}
          <ListState
            state={listStateOf({
              itemCount: items.length,
              isPending: chunks.isPending && open && opened,
              isError: chunks.isError,
              isFetchingNextPage: chunks.isFetchingNextPage,
              hasNextPage: chunks.hasNextPage,
              searching: search !== '',
            })}
            onRetry={() => void chunks.refetch()}
            onLoadMore={() => void chunks.fetchNextPage()}
          />
        </div>
      </div>
    </Popup>
  );
};

/** /subscription: every visible machine with its figures and whether it is subscribed (spec section 2). */
const SubscriptionPage = () => {
  const navigate = useNavigate();
  const [nameTag, setNameTag] = useState('');
  const [group, setGroup] = useState('');
  const [selectorOpen, setSelectorOpen] = useState(false);
  const [groupOpen, setGroupOpen] = useState(false);
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const filter = useMemo(
    () => ({ nameTag: nameTag || undefined, produceGroup: group || undefined }),
    [nameTag, group],
  );
  const pages = useFollowPages(filter);
  const groups = useProductGroups();
  const cancel = useCancelFollow();
  const rows: FollowRow[] = pages.data?.pages.flatMap((p) => p.data) ?? [];

  const toggle = (sn: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(sn)) next.delete(sn);
      else next.add(sn);
      return next;
    });
  const requireSelection = useCallback(() => {
    if (selected.size === 0) {
      toastFailure(subscriptionMessages.selectMachine);
      return null;
    }
    return [...selected];
  }, [selected]);

  return (
    <div className={styles.page}>
      <NavBar
        onBack={() => void navigate(-1)}
        right={
          <a
            onClick={() => {
              setSelecting((v) => !v);
              setSelected(new Set());
            }}
            data-testid="subscription-select-mode"
          >
            {selecting ? '完成' : '多选'}
          </a>
        }
      >
        我的订阅
      </NavBar>
      <div className={styles.filters}>
        <Button
          size="small"
          onClick={() => setSelectorOpen(true)}
          data-testid="subscription-search"
        >
          {nameTag || '搜索SN码'}
        </Button>
        {nameTag ? <a onClick={() => setNameTag('')}>清除</a> : null}
        <Button size="small" onClick={() => setGroupOpen(true)} data-testid="subscription-group">
          {group || '全部产品组'}
        </Button>
      </div>
      {selecting ? (
        <div className={styles.batch} data-testid="subscription-batch">
          <Checkbox
            checked={rows.length > 0 && selected.size === rows.length}
            onChange={(all) => setSelected(all ? new Set(rows.map((r) => r.snCode)) : new Set())}
            data-testid="subscription-select-all"
          >
            全选（{selected.size}）
          </Checkbox>
          <Button
            size="small"
            color="primary"
            onClick={() => {
              const sns = requireSelection();
              if (sns) void navigate(links.followSetting(sns));
            }}
            data-testid="subscription-batch-set"
          >
            批量设置
          </Button>
          <Button
            size="small"
            color="danger"
            onClick={() => {
              const sns = requireSelection();
              if (sns) cancel.mutate(sns, { onSuccess: () => setSelected(new Set()) });
            }}
            data-testid="subscription-batch-cancel"
          >
            批量取消
          </Button>
        </div>
      ) : null}
      <div className={styles.header}>
        <span>设备</span>
        <span>良率</span>
        <span>稼动率</span>
        <span>PPM</span>
      </div>
      <div data-testid="subscription-list">
        {rows.map((row) => (
          <SwipeAction
            key={row.snCode}
            rightActions={[
              {
                key: 'edit',
                text: '编辑',
                color: 'primary',
                onClick: () => void navigate(links.followSetting([row.snCode])),
              },
              {
                key: 'delete',
                text: '删除',
                color: 'danger',
                onClick: () => cancel.mutate([row.snCode]),
              },
            ]}
          >
            <div
              className={styles.row}
              data-testid="subscription-row"
              data-sn={row.snCode}
              onClick={selecting ? () => toggle(row.snCode) : undefined}
            >
              <div className={styles.device}>
                {selecting ? <Checkbox checked={selected.has(row.snCode)} /> : null}
                <div>
                  <div className={styles.sn}>{row.nickSnCode || row.snCode}</div>
                  <div className={styles.name}>
                    {row.deviceName}
                    {row.isFollow ? <SubscribedTag /> : null}
                  </div>
                </div>
              </div>
              <span>{figure(row.yield, row.yieldTarget, true)}</span>
              <span>{figure(row.useRate, row.useRateTarget, true)}</span>
              <span>{figure(row.ppm, row.ppmTarget)}</span>
            </div>
          </SwipeAction>
        ))}
      </div>
      <ListState
        state={listStateOf({
          itemCount: rows.length,
          isPending: pages.isPending,
          isError: pages.isError,
          isFetchingNextPage: pages.isFetchingNextPage,
          hasNextPage: pages.hasNextPage,
          searching: nameTag !== '' || group !== '',
        })}
        onRetry={() => void pages.refetch()}
        onLoadMore={() => void pages.fetchNextPage()}
      />
      <SnSelector
        open={selectorOpen}
        onClose={() => setSelectorOpen(false)}
        onPick={(sn) => {
          setNameTag(sn);
          setSelectorOpen(false);
        }}
      />
      <Picker
        columns={[[{ label: '全部产品组', value: '' }, ...(groups.data ?? [])]]}
        visible={groupOpen}
        onClose={() => setGroupOpen(false)}
        value={[group]}
        onConfirm={(value) => setGroup(String(value[0] ?? ''))}
      />
    </div>
  );
};

export default SubscriptionPage;
