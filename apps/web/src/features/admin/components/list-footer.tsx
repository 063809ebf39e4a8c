import type { ReactNode } from 'react';
import { ListState } from '../../../shared/components/list-state.tsx';
import { listStateOf } from '../../../shared/list-state.ts';

/**
 * Below an admin list: loading, 请求失败 with its retry, 暂无数据 (查无数据 while searching), or —
 * once it has rows — its pager, if it is read a page at a time.
 */
export const ListFooter = ({
  query,
  itemCount,
  searching = false,
  pager = null,
}: {
  query: { isPending: boolean; isError: boolean; refetch: () => Promise<unknown> };
  itemCount: number;
  searching?: boolean;
  pager?: ReactNode;
}) => {
  const state = listStateOf({
    itemCount,
    isPending: query.isPending,
    isError: query.isError,
    isFetchingNextPage: false,
    hasNextPage: false,
    searching,
  });
  if (state === 'end') return pager;
  return <ListState state={state} onRetry={() => void query.refetch()} />;
};
