import { ReplyCode } from '@linewatch/contracts/envelope';
import type { MachineCard as Machine } from '@linewatch/contracts/devices';
import type { DeviceStatus } from '@linewatch/contracts/rules/machine-states';
import { useQueryClient } from '@tanstack/react-query';
import { Button, SearchBar } from 'antd-mobile';
import { DownFill, HistogramOutline, StarOutline, UnorderedListOutline } from 'antd-mobile-icons';
import { lazy, useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../shared/api-client.ts';
import { ListState } from '../../../shared/components/list-state.tsx';
import { OnFirstOpen } from '../../../shared/perf/on-first-open.tsx';
import { formatClock } from '../../../shared/format.ts';
import { webMessages } from '../../../shared/messages.ts';
import { toastInfo } from '../../../shared/toast.ts';
import { useDebouncedValue } from '../../../shared/use-debounced-value.ts';
import { useMachinePages, useProcessMenu, useStatusSummary } from '../api.ts';
import { DeviceGroup } from '../components/device-group.tsx';
import { ListRefresh } from '../components/list-refresh.tsx';
import { displayName } from '../components/machine-card.tsx';
import { SelectionBar } from '../components/selection-bar.tsx';
import { StatusSummaryBar } from '../components/status-summary.tsx';
import { ALL, groupsFor, resultGroup, selectionFilter, type MenuSelection } from '../groups.ts';
import styles from './device-list-page.module.css';
import { links, paths } from '../../../shared/paths.ts';
import { queryKeys } from '../../../shared/query-keys.ts';

const SEARCH_DEBOUNCE_MS = 1000;
// Opened by a tap on the menu button: its popup loads then (OnFirstOpen).
const MenuDrawer = lazy(() =>
  import('../components/menu-drawer.tsx').then(({ MenuDrawer }) => ({ default: MenuDrawer })),
);

const DeviceListPage = () => {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const menu = useProcessMenu();
  const [searchText, setSearchText] = useState('');
  const [submitted, setSubmitted] = useState<string | null>(null);
  const debounced = useDebouncedValue(searchText, SEARCH_DEBOUNCE_MS);
  // Enter or clear applies at once; typing waits for the debounce.
  const nameTag = (submitted ?? debounced).trim();
  const searching = nameTag !== '';
  const [selection, setSelection] = useState<MenuSelection>(ALL);
  const [statusFilter, setStatusFilter] = useState<DeviceStatus | null>(null);
  // A search or a status filter shows one result list; the page watches it for a refusal.
  const result = useMemo(
    () => resultGroup(selection, nameTag, statusFilter),
    [selection, nameTag, statusFilter],
  );
  const narrowed = searching || statusFilter !== null;
  const resultPages = useMachinePages(result.filter, narrowed);
  // An SN the user may not see: the refusal was toasted once (无权查看，请联系管理员) and the list
  // stays as it was.
  const refused =
    resultPages.error instanceof ApiError && resultPages.error.code === ReplyCode.forbidden;
  const showResult = narrowed && !refused;
  const summary = useStatusSummary({
    ...selectionFilter(selection),
    ...(nameTag && !refused ? { nameTag } : {}),
  });
  const [menuOpen, setMenuOpen] = useState(false);
  /** null until the user folds or unfolds a group: then the first group is open. */
  const [expanded, setExpanded] = useState<ReadonlySet<string> | null>(null);
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<ReadonlyMap<string, string>>(new Map());

  const groups = useMemo(() => groupsFor(menu.data ?? [], selection, ''), [menu.data, selection]);
  const isExpanded = (key: string) => (expanded ? expanded.has(key) : key === groups[0]?.key);

  const toggleGroup = useCallback(
    (key: string) => {
      setExpanded((current) => {
        const next = new Set(current ?? (groups[0] ? [groups[0].key] : []));
        if (next.has(key)) next.delete(key);
        else next.add(key);
        return next;
      });
    },
    [groups],
  );

  const pressCard = useCallback(
    (machine: Machine) => {
      if (!selecting) {
        void navigate(links.currentDataReport(machine.snCode));
        return;
      }
      setSelected((current) => {
        const next = new Map(current);
        if (next.has(machine.snCode)) next.delete(machine.snCode);
        else next.set(machine.snCode, displayName(machine));
        return next;
      });
    },
    [navigate, selecting],
  );

  const isSelected = useCallback((snCode: string) => selected.has(snCode), [selected]);

  const toggleSelecting = () => {
    setSelecting((on) => !on);
    setSelected(new Map());
  };

  const confirmSelection = () => {
    if (selected.size === 0) {
      toastInfo(webMessages.selectFirst);
      return;
    }
    void navigate(links.followSetting([...selected.keys()]));
  };

  let content;
  if (menu.isPending) content = <ListState state="loading" />;
  // A refresh that failed (offline) keeps the lines of the last answer: the banner says how old.
  else if (menu.isError && !menu.data)
    content = <ListState state="error" onRetry={() => void menu.refetch()} />;
  else if (showResult) {
    content = (
      <DeviceGroup
        key={result.key}
        group={result}
        expanded
        searching={searching}
        narrowed
        selecting={selecting}
        isSelected={isSelected}
        onToggle={() => undefined}
        onPressCard={pressCard}
      />
    );
  } else if (groups.length === 0) content = <ListState state="empty" />;
  else {
    content = groups.map((group) => (
      <DeviceGroup
        key={group.key}
        group={group}
        expanded={isExpanded(group.key)}
        searching={false}
        selecting={selecting}
        isSelected={isSelected}
        onToggle={toggleGroup}
        onPressCard={pressCard}
      />
    ));
  }

  return (
    <div className={`${styles.page} ${selecting ? styles.withBar : ''}`}>
      <div className={styles.toolbar}>
        <SearchBar
          data-testid="device-search"
          placeholder="搜索机台SN码/名称"
          value={searchText}
          onChange={(value) => {
            setSearchText(value);
            setSubmitted(null);
          }}
          onSearch={(value) => setSubmitted(value)}
          onClear={() => setSubmitted('')}
        />
        <div className={styles.actions}>
          <button
            type="button"
            className={styles.menuButton}
            data-testid="menu-button"
            onClick={() => setMenuOpen(true)}
          >
            <UnorderedListOutline />
            <span className={styles.menuText}>{selection.text}</span>
            <DownFill className={styles.caret} />
          </button>
          <Button
            size="small"
            fill={selecting ? 'solid' : 'outline'}
            color="primary"
            data-testid="subscribe-toggle"
            onClick={toggleSelecting}
          >
            <StarOutline /> {selecting ? '退出设置' : '订阅设置'}
          </Button>
          <Button
            size="small"
            fill="outline"
            data-testid="statistics-button"
            onClick={() => void navigate(paths.deviceStatistics)}
          >
            <HistogramOutline /> 统计
          </Button>
        </div>
        <StatusSummaryBar
          summary={summary.data}
          active={statusFilter}
          onSelect={(status) => {
            setStatusFilter(status);
            // The filtered list is fetched now: the counts beside it are fetched with it, so the
            // two say the same (a summary up to 10 s old could show 故障 3 over a list of 4).
            void summary.refetch();
          }}
        />
      </div>
      <ListRefresh
        onRefresh={() =>
          queryClient.refetchQueries({ queryKey: queryKeys.devices.all, type: 'active' })
        }
      >
        <div className={styles.stamp} data-testid="list-updated-at">
          {summary.dataUpdatedAt ? `更新于 ${formatClock(summary.dataUpdatedAt)}` : ''}
        </div>
        <div className={styles.groups}>{content}</div>
      </ListRefresh>
      <OnFirstOpen open={menuOpen}>
        <MenuDrawer
          visible={menuOpen}
          menu={menu.data}
          failed={menu.isError && !menu.data}
          selection={selection}
          onRetry={() => void menu.refetch()}
          onClose={() => setMenuOpen(false)}
          onSelect={(next) => {
            setSelection(next);
            setExpanded(null);
            setMenuOpen(false);
          }}
        />
      </OnFirstOpen>
      {selecting ? (
        <SelectionBar
          names={[...selected.values()]}
          onCancel={toggleSelecting}
          onConfirm={confirmSelection}
        />
      ) : null}
    </div>
  );
};

export default DeviceListPage;
