import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { isOffline, useConnectivity } from '../../shared/connectivity.ts';
import { formatAge } from '../../shared/format.ts';
import { webMessages } from '../../shared/messages.ts';
import styles from './offline-banner.module.css';

/** How often the age in the banner is brought up to date. */
const AGE_TICK_MS = 30_000;

/**
 * When the oldest data on the screen was fetched (epoch ms), 0 when it shows none: the queries
 * the mounted pages observe (a real-time page's too, which its socket fills). What the screen
 * shows is at least that old.
 */
export const oldestShownData = (client: QueryClient): number => {
  let oldest = 0;
  for (const query of client.getQueryCache().getAll()) {
    const { data, dataUpdatedAt } = query.state;
    if (query.getObserversCount() === 0 || data === undefined || dataUpdatedAt === 0) continue;
    if (oldest === 0 || dataUpdatedAt < oldest) oldest = dataUpdatedAt;
  }
  return oldest;
};

/**
 * 离线 · 数据更新于 3分钟前 above every screen while the server cannot be reached
 * (shared/connectivity.ts): the pages keep showing their last-known data, and this says how old
 * it is. Gone when the network is back and the pages refetch.
 */
export const OfflineBanner = () => {
  const offline = useConnectivity(isOffline);
  const client = useQueryClient();
  const subscribe = useCallback(
    (onChange: () => void) => client.getQueryCache().subscribe(onChange),
    [client],
  );
  const oldest = useSyncExternalStore(subscribe, () => oldestShownData(client));
  const [now, setNow] = useState(Date.now);

  useEffect(() => {
    if (!offline) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), AGE_TICK_MS);
    return () => clearInterval(timer);
  }, [offline]);

  if (!offline) return null;
  const text =
    oldest > 0
      ? `${webMessages.offline} · ${webMessages.dataAge(formatAge(now - oldest))}`
      : `${webMessages.offline} · ${webMessages.networkError}`;
  return (
    <div className={styles.banner} role="status" data-testid="offline-banner">
      {text}
    </div>
  );
};
