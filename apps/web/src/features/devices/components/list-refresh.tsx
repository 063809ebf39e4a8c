import { useCallback, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { afterFirstRender } from '../../../shared/perf/after-first-render.ts';

const usePullToRefresh = afterFirstRender(() => import('./pull-to-refresh.ts'));

/**
 * antd-mobile's PullToRefresh around the list, loaded after the list's first render. Until then the
 * list stands alone: at rest PullToRefresh draws nothing of its own (its head folded to 0 above
 * the list), so nothing moves when it arrives. The list renders once, into a node of its own (a portal) that moves into
 * PullToRefresh when it arrives: swapping the wrapper does not remount or re-render the list.
 */
export const ListRefresh = ({
  onRefresh,
  children,
}: {
  onRefresh: () => Promise<unknown>;
  children: ReactNode;
}) => {
  const loaded = usePullToRefresh();
  const [host] = useState(() => document.createElement('div'));
  const slot = useCallback(
    (node: HTMLDivElement | null) => {
      if (node) node.appendChild(host);
    },
    [host],
  );
  const content = <div ref={slot} />;
  return (
    <>
      {loaded ? (
        <loaded.PullToRefresh onRefresh={onRefresh}>{content}</loaded.PullToRefresh>
      ) : (
        content
      )}
      {createPortal(children, host)}
    </>
  );
};
