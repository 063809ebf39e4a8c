import { create } from 'zustand';

/*
 * Whether the server can be reached (docs/architecture.md, "Offline"). Two signs: the browser's
 * own (navigator.onLine with its online/offline events: airplane mode, no signal) and the app's
 * requests (a factory floor's Wi-Fi that is up but reaches nothing: onLine stays true there, and
 * only a request that fails or times out tells). Any answer from the server clears the second.
 */
interface Connectivity {
  browserOffline: boolean;
  unreachable: boolean;
}

export const useConnectivity = create<Connectivity>(() => ({
  browserOffline: typeof navigator !== 'undefined' && navigator.onLine === false,
  unreachable: false,
}));

export const isOffline = ({ browserOffline, unreachable }: Connectivity): boolean =>
  browserOffline || unreachable;

/** The browser says it has no network: a request would fail, so none is sent. */
export const browserIsOffline = (): boolean => useConnectivity.getState().browserOffline;

export const noteServerReached = (): void => {
  if (useConnectivity.getState().unreachable) useConnectivity.setState({ unreachable: false });
};

export const noteServerUnreachable = (): void => {
  if (!useConnectivity.getState().unreachable) useConnectivity.setState({ unreachable: true });
};

if (typeof window !== 'undefined') {
  window.addEventListener('offline', () => useConnectivity.setState({ browserOffline: true }));
  // Back online: the requests will tell whether the server is reached too.
  window.addEventListener('online', () =>
    useConnectivity.setState({ browserOffline: false, unreachable: false }),
  );
}
