import { subscriptionMessages, type FollowRow } from '@linewatch/contracts/subscriptions';
import { Button, Checkbox, NavBar } from 'antd-mobile';
import { lazy, useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { ListState } from '../../../shared/components/list-state.tsx';
import { OnFirstOpen } from '../../../shared/perf/on-first-open.tsx';
import { formatPercent } from '../../../shared/format.ts';
import { listStateOf } from '../../../shared/list-state.ts';
import { links } from '../../../shared/paths.ts';
import { toastFailure } from '../../../shared/toast.ts';
import { useDebouncedValue } from '../../../shared/use-debounced-value.ts';
import {
  useConfirmedCancel,
  useFollowPages,
  useProductGroups,
  useSnCodeChunks,
  useUserDict,
} from '../api.ts';
import { RowSwipe } from '../components/row-swipe.tsx';
import { SubscribedTag } from '../components/subscribed-tag.tsx';
import styles from './subscription-page.module.css';
import { useGoBack } from '../../../shared/use-go-back.ts';

/** docs/product.md section 9: search debounce 1000 ms, search-open debounce 500 ms. */
const SEARCH_DEBOUNCE_MS = 1000;
const OPEN_DEBOUNCE_MS = 500;

const figure = (value: number | null, target: number, percent = false) =>
  `${value === null ? '—' : percent ? formatPercent(value) : value} / ${percent ? formatPercent(target) : target}`;

// What a tap opens loads on its first opening (OnFirstOpen): their popups bring react-spring.
const SnSelector = lazy(() =>
  import('../components/sn-selector.tsx').then(({ SnSelector }) => ({ default: SnSelector })),
);
const Picker = lazy(() =>
  import('../components/picker.ts').then(({ Picker }) => ({ default: Picker })),
);

/** /subscription: every visible machine with its figures and whether it is subscribed (docs/product.md section 2). */
const SubscriptionPage = () => {
  const navigate = useNavigate();
  const goBack = useGoBack();
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
  const cancel = useConfirmedCancel();
  const rows: FollowRow[] = pages.data?.pages.flatMap((p) => p.data) ?? [];
  // The SN selector's search and queries: it fetches 500 ms after it opens (docs/product.md section 9).
  const [selectorText, setSelectorText] = useState('');
  const selectorSearch = useDebouncedValue(selectorText, SEARCH_DEBOUNCE_MS);
  const selectorOpened = useDebouncedValue(selectorOpen, OPEN_DEBOUNCE_MS);
  const selectorFetching = selectorOpen && selectorOpened;
  const chunks = useSnCodeChunks(selectorSearch, selectorFetching);
  const followed = useUserDict(selectorSearch, selectorFetching);
  const options = chunks.data?.pages.flatMap((p) => p.data) ?? [];

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
        onBack={goBack}
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
              if (sns) void cancel.run(sns, () => setSelected(new Set()));
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
      <div role="list" aria-label="订阅列表" data-testid="subscription-list">
        {rows.map((row) => (
          <div role="listitem" key={row.snCode}>
            <RowSwipe
              actions={[
                {
                  key: 'edit',
                  text: '编辑',
                  color: 'primary',
                  onClick: () => void navigate(links.followSetting([row.snCode])),
                },
                // Only a subscription can be deleted.
                ...(row.isFollow
                  ? [
                      {
                        key: 'delete',
                        text: '删除',
                        color: 'danger' as const,
                        onClick: () => void cancel.run([row.snCode]),
                      },
                    ]
                  : []),
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
            </RowSwipe>
          </div>
        ))}
      </div>
      <ListState
        state={listStateOf({
          itemCount: rows.length,
          isPending: pages.isPending,
          isError: pages.isError,
          isRefetchError: pages.isRefetchError,
          isFetchingNextPage: pages.isFetchingNextPage,
          hasNextPage: pages.hasNextPage,
          searching: nameTag !== '' || group !== '',
        })}
        onRetry={() => void pages.refetch()}
        onLoadMore={() => void pages.fetchNextPage()}
      />
      <OnFirstOpen open={selectorOpen}>
        <SnSelector
          open={selectorOpen}
          text={selectorText}
          onText={setSelectorText}
          items={options}
          followed={new Set(followed.data?.map((d) => d.value))}
          state={listStateOf({
            itemCount: options.length,
            isPending: chunks.isPending && selectorFetching,
            isError: chunks.isError,
            isRefetchError: chunks.isRefetchError,
            isFetchingNextPage: chunks.isFetchingNextPage,
            hasNextPage: chunks.hasNextPage,
            searching: selectorSearch !== '',
          })}
          onRetry={() => void chunks.refetch()}
          onLoadMore={() => void chunks.fetchNextPage()}
          onClose={() => setSelectorOpen(false)}
          onPick={(sn) => {
            setNameTag(sn);
            setSelectorOpen(false);
          }}
        />
      </OnFirstOpen>
      <OnFirstOpen open={groupOpen}>
        <Picker
          columns={[[{ label: '全部产品组', value: '' }, ...(groups.data ?? [])]]}
          visible={groupOpen}
          onClose={() => setGroupOpen(false)}
          value={[group]}
          onConfirm={(value) => setGroup(String(value[0] ?? ''))}
        />
      </OnFirstOpen>
    </div>
  );
};

export default SubscriptionPage;
