export const LOGIN_PATH = '/login';

/** /login?redirect=…[&code=…] */
export const loginUrl = (redirect: string, code?: string | null): string => {
  const query = new URLSearchParams({ redirect });
  if (code) query.set('code', code);
  return `${LOGIN_PATH}?${query.toString()}`;
};

/** Only same-site paths are followed after sign-in, never another origin. */
export const safeRedirect = (raw: string | null | undefined, fallback = '/'): string =>
  raw && raw.startsWith('/') && !raw.startsWith('//') && !raw.startsWith('/\\') ? raw : fallback;
