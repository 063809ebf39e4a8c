type Navigate = (to: string, options?: { replace?: boolean }) => void;

/* The router registers itself here so code outside React (api client, sockets) can navigate. */
let navigateImpl: Navigate = (to, options) => {
  if (options?.replace) window.location.replace(to);
  else window.location.assign(to);
};

export const setNavigator = (navigate: Navigate): void => {
  navigateImpl = navigate;
};

export const navigateTo: Navigate = (to, options) => navigateImpl(to, options);

export const currentPath = (): string => window.location.pathname + window.location.search;
