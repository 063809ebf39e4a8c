/**
 * The list states' texts (docs/design.md section 7, UX), zod-free: the shared list-state component
 * imports them on every list's first screen.
 */
export const listMessages = {
  noData: '暂无数据',
  noResult: '查无数据',
  noMore: '没有更多了',
  retry: '请求失败，点击重新加载',
} as const;
