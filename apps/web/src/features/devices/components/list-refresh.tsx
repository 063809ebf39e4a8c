import { useCallback, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { afterFirstRender } from '../../../shared/components/after-first-render.ts';

const usePullToRefresh = afterFirstRender(() => import('./pull-to-refresh.ts'));

/**
 * antd-mobile's PullToRefresh around the list, loaded after the list's first render. Until then a
 * still copy of its markup (the head folded to 0, as PullToRefresh draws it at rest) holds the
 * place. The list renders once, into a node of its own (a portal) that moves into
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
        <div className="adm-pull-to-refresh">
          <div className="adm-pull-to-refresh-head" style={{ height: 0 }} />
          <div className="adm-pull-to-refresh-content">{content}</div>
        </div>
      )}
      {createPortal(children, host)}
    </>
  );
};
