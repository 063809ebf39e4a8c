import { Button } from 'antd-mobile';
import type { ReactNode } from 'react';
import { afterFirstRender } from '../../../shared/components/after-first-render.ts';

const useSwipeAction = afterFirstRender(() => import('./swipe-action.ts'));

interface RowAction {
  key: string;
  text: string;
  color: 'primary' | 'danger';
  onClick: () => void;
}

/**
 * A row that swipes left to show its actions: antd-mobile's SwipeAction once it has loaded (after
 * the page's first render), before that a still copy of its markup at rest, the actions hidden
 * past the right edge as SwipeAction hides them. Rows come with the list's first page, which is
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
    <div className="adm-swipe-action" data-swipe="still">
      <div className="adm-swipe-action-track">
        <div className="adm-swipe-action-actions adm-swipe-action-actions-left" />
        <div className="adm-swipe-action-content">
          <div>{children}</div>
        </div>
        <div className="adm-swipe-action-actions adm-swipe-action-actions-right">
          {actions.map((action) => (
            <Button
              key={action.key}
              className="adm-swipe-action-action-button"
              style={{ '--background-color': `var(--adm-color-${action.color})` }}
              onClick={action.onClick}
            >
              {action.text}
            </Button>
          ))}
        </div>
      </div>
    </div>
  );
};
