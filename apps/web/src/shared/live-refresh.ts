/**
 * Monitoring screens (the device list, the map) fetch what they show again this often while open
 * (docs/architecture.md says why a refetch and not a push). A query that failed stops refreshing
 * until retried, so a refusal is not toasted again every few seconds.
 */
export const LIVE_REFRESH_MS = 10_000;
export const liveRefresh = (query: { state: { status: string } }): number | false =>
  query.state.status === 'error' ? false : LIVE_REFRESH_MS;
