import { listMessages } from '@linewatch/contracts/list-messages';
import { DotLoading } from 'antd-mobile';
import { useEffect, useRef } from 'react';
import type { ListStateKind } from '../list-state.ts';
import { webMessages } from '../messages.ts';
import styles from './list-state.module.css';

interface ListStateProps {
  state: ListStateKind;
  onRetry?: () => void;
  /** Called when the "more" footer scrolls into view (or is tapped). */
  onLoadMore?: () => void;
}

const texts: Record<Exclude<ListStateKind, 'loading' | 'more'>, string> = {
  empty: listMessages.noData,
  noResult: listMessages.noResult,
  end: listMessages.noMore,
  error: listMessages.retry,
};

/**
 * The one way a list shows loading / empty / no result / end / retry / load more. The words are a
 * status (a screen reader says 加载中, 暂无数据… as they change); retry and more are buttons.
 */
export const ListState = ({ state, onRetry, onLoadMore }: ListStateProps) => {
  const sentinel = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const node = sentinel.current;
    if (state !== 'more' || !node || !onLoadMore || typeof IntersectionObserver === 'undefined')
      return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) onLoadMore();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [state, onLoadMore]);

  if (state === 'loading') {
    return (
      <div className={styles.state} role="status" data-testid="list-state" data-state="loading">
        {webMessages.loading}
        <DotLoading />
      </div>
    );
  }
  if (state === 'more') {
    return (
      <button
        ref={sentinel}
        type="button"
        className={`${styles.state} ${styles.action}`}
        data-testid="list-state"
        data-state="more"
        onClick={onLoadMore}
      >
        {webMessages.loadMore}
      </button>
    );
  }
  if (state === 'error') {
    return (
      <button
        type="button"
        className={`${styles.state} ${styles.action} ${styles.error}`}
        data-testid="list-state"
        data-state="error"
        onClick={onRetry}
      >
        {texts.error}
      </button>
    );
  }
  return (
    <div
      className={`${styles.state} ${state === 'end' ? '' : styles.blank}`}
      role="status"
      data-testid="list-state"
      data-state={state}
    >
      {texts[state]}
    </div>
  );
};
