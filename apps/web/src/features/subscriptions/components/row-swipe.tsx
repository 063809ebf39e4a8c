import type { ReactNode } from 'react';
import { afterFirstRender } from '../../../shared/perf/after-first-render.ts';
import styles from './row-swipe.module.css';

const useSwipeAction = afterFirstRender(() => import('./swipe-action.ts'));

interface RowAction {
  key: string;
  text: string;
  color: 'primary' | 'danger';
  onClick: () => void;
}

/**
 * A row that swipes left to show its actions: antd-mobile's SwipeAction once it has loaded (after
 * the page's first render), before that the row alone, as SwipeAction draws it at rest (its
 * actions hidden past the right edge). Rows come with the list's first page, which is
 * usually after the load; rows already shown then are drawn again in SwipeAction.
 */
export const RowSwipe = ({ actions, children }: { actions: RowAction[]; children: ReactNode }) => {
  const loaded = useSwipeAction();
  // data-swipe says which it is (a swipe on the still copy does nothing; e2e waits for live).
  if (loaded)
    return (
      <loaded.SwipeAction data-swipe="live" rightActions={actions}>
        {children}
      </loaded.SwipeAction>
    );
  return (
    <div className={styles.still} data-swipe="still">
      {children}
    </div>
  );
};
