import type { MachineCard as Machine } from '@linewatch/contracts/devices';
import { PAGE_SIZE } from '@linewatch/contracts/rules/paging';
import { DownOutline, RightOutline } from 'antd-mobile-icons';
import { useCallback, useDeferredValue, useId } from 'react';
import { ListState } from '../../../shared/components/list-state.tsx';
import { listStateOf } from '../../../shared/list-state.ts';
import { loadedCount, useMachinePages } from '../api.ts';
import type { GroupSpec } from '../groups.ts';
import styles from './device-group.module.css';
import { MachineCard } from './machine-card.tsx';

/** A machine card's height with its margin at 375 px (≈ 174 px measured in the demo). */
const CARD_HEIGHT_ESTIMATE = 174;

interface DeviceGroupProps {
  group: GroupSpec;
  expanded: boolean;
  searching: boolean;
  /** A search or status filter: the menu's count does not apply, only the server's total. */
  narrowed?: boolean;
  selecting: boolean;
  isSelected: (snCode: string) => boolean;
  onToggle: (key: string) => void;
  onPressCard: (machine: Machine) => void;
}

/** One production line: a header that folds, and its own paged list (15 per page). */
export const DeviceGroup = ({
  group,
  expanded,
  searching,
  narrowed = searching,
  selecting,
  isSelected,
  onToggle,
  onPressCard,
}: DeviceGroupProps) => {
  const pages = useMachinePages(group.filter, expanded);
  const { fetchNextPage, hasNextPage, isFetchingNextPage, refetch } = pages;
  // A reply renders at once (React Query's updates are synchronous); the cards, the page's
  // heaviest part, render from a deferred copy of it, at transition priority: in 5 ms slices the
  // browser can paint and take a tap between, not in one long task.
  const shown = useDeferredValue(pages.data);
  /** Pages fetched and not drawn yet: the list reads as loading them. */
  const drawing = (shown?.pages.length ?? 0) < (pages.data?.pages.length ?? 0);
  const items = shown?.pages.flatMap((page) => page.data) ?? [];
  const total = pages.data?.pages[0]?.total;
  const count = total ?? (narrowed ? undefined : group.count);

  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [fetchNextPage, hasNextPage, isFetchingNextPage]);

  const retry = useCallback(() => {
    if (pages.isFetchNextPageError) void fetchNextPage();
    else void refetch();
  }, [fetchNextPage, pages.isFetchNextPageError, refetch]);

  const titleId = useId();
  return (
    <section
      className={styles.group}
      aria-labelledby={titleId}
      data-testid="device-group"
      data-key={group.key}
      data-expanded={expanded}
    >
      <button
        type="button"
        className={styles.header}
        data-testid="device-group-header"
        aria-expanded={expanded}
        onClick={() => onToggle(group.key)}
      >
        {expanded ? (
          <DownOutline className={styles.arrow} />
        ) : (
          <RightOutline className={styles.arrow} />
        )}
        <span className={styles.title} id={titleId}>
          {group.title}
        </span>
        {count === undefined ? null : (
          <span className={styles.count} data-testid="device-group-count">
            {count}台
          </span>
        )}
      </button>
      {expanded ? (
        <div
          className={styles.body}
          // While the first page loads, the cards' room is kept (the menu knows how many): the
          // lines below would otherwise be pushed out of view when the cards arrive, a layout
          // shift the user sees (Lighthouse's CLS on /deviceList was 0.05 of it).
          style={
            (pages.isPending || (drawing && !shown)) && count
              ? { minHeight: Math.min(count, PAGE_SIZE.deviceList) * CARD_HEIGHT_ESTIMATE }
              : undefined
          }
          data-testid="device-group-body"
        >
          {items.map((machine) => (
            <MachineCard
              key={machine.snCode}
              machine={machine}
              selecting={selecting}
              selected={isSelected(machine.snCode)}
              onPress={onPressCard}
            />
          ))}
          <ListState
            state={listStateOf({
              itemCount: loadedCount(shown?.pages ?? []),
              isPending: pages.isPending,
              isError: pages.isError,
              isRefetchError: pages.isRefetchError,
              isFetchingNextPage: isFetchingNextPage || drawing,
              hasNextPage,
              searching,
            })}
            onRetry={retry}
            onLoadMore={loadMore}
          />
        </div>
      ) : null}
    </section>
  );
};
