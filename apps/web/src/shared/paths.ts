/**
 * Every route of the app (docs/product.md section 2), the one place a route path is written: the router, the
 * guard, the tab bars, navigate() calls and the tests all take them from here.
 */
export const paths = {
  home: '/',
  // public
  login: '/login',
  userApply: '/userApply',
  userAudit: '/userAudit',
  faultAlarm: '/faultAlarm',
  refresh: '/refresh',
  // main tabs
  map: '/map',
  deviceList: '/deviceList',
  center: '/center',
  // one machine (?snCode=)
  currentDataReport: '/currentDataReport',
  deviceHistory: '/deviceHistory',
  deviceLog: '/deviceLog',
  // machines and subscriptions
  bindDevice: '/bindDevice',
  unboundDevice: '/unboundDevice',
  followSetting: '/followSetting',
  deviceStatistics: '/deviceStatistics',
  threeParam: '/threeParam',
  subscription: '/subscription',
  set: '/set',
  // FACA
  faca: '/faca',
  facaAddQuestion: '/faca/addQuestion',
  facaEditFaca: '/faca/editFACA',
  facaEditFaOrCa: '/faca/editFAOrCA',
  facaTask: '/faca/task',
  facaEditTask: '/faca/editTask',
  // not in the spec's route table: the daily/weekly report a report message opens, the in-app
  // inbox, and the administration pages (admins only)
  report: '/report',
  messages: '/messages',
  admin: '/admin',
  adminUsers: '/admin/users',
  adminApplications: '/admin/applications',
  adminLines: '/admin/lines',
  adminMachines: '/admin/machines',
  adminGateways: '/admin/gateways',
  adminAudit: '/admin/audit',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];

const withQuery = (path: AppPath, query: Record<string, string | null | undefined>): string => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) params.set(name, value);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
};

/** What an alarm gives a new FACA question: SN, alarm content, count and duration in ms. */
export interface FacaPrefill {
  snCode?: string;
  warningContent?: string;
  count?: number;
  timeLength?: number;
}

/** The login page's `reason` when a session ended: it says 请重新登录. */
export const LOGIN_AGAIN = 'expired';

/** Builders for the routes that take query parameters. */
export const links = {
  /** /login?redirect=…[&code=…&state=…] (code and state: back from WeChat's authorisation) */
  login: (redirect: string, code?: string | null, state?: string | null): string =>
    withQuery(paths.login, { redirect, code, state }),
  /**
   * /login?redirect=…&reason=expired: the session ended (reply 0405, socket 4405, the user info
   * could not be loaded); the login page says 请重新登录 for as long as it is shown.
   */
  loginAgain: (redirect: string): string =>
    withQuery(paths.login, { redirect, reason: LOGIN_AGAIN }),
  /** /refresh?redirect=… reloads the route it names. */
  refresh: (redirect: string): string => withQuery(paths.refresh, { redirect }),
  /**
   * A page of one machine: /currentDataReport?snCode=…, /deviceHistory?snCode=…, and
   * /threeParam?snCode=…, the history as a message link opens it.
   */
  machine: (
    path:
      | typeof paths.currentDataReport
      | typeof paths.deviceHistory
      | typeof paths.deviceLog
      | typeof paths.threeParam,
    snCode: string,
  ): string => withQuery(path, { snCode }),
  currentDataReport: (snCode: string): string => links.machine(paths.currentDataReport, snCode),
  /** The device map drilled to an area: /map?area=中国/广东省 (world: /map). */
  map: (area: readonly string[]): string => withQuery(paths.map, { area: area.join('/') }),
  /** The subscription settings of the machines selected on the device list (comma-separated). */
  followSetting: (snCodes: readonly string[]): string =>
    withQuery(paths.followSetting, { snCode: snCodes.join(',') }),
  /**
   * A new FACA question, prefilled from an alarm (a log item or an alarm message): SN, alarm
   * content, count and duration in ms. Without arguments, an empty form; with `id`, an edit.
   */
  facaAddQuestion: (prefill: FacaPrefill & { id?: number } = {}): string =>
    withQuery(paths.facaAddQuestion, {
      id: prefill.id?.toString(),
      snCode: prefill.snCode,
      warningContent: prefill.warningContent,
      count: prefill.count?.toString(),
      timeLength: prefill.timeLength?.toString(),
    }),
  facaEditFaca: (id: number): string => withQuery(paths.facaEditFaca, { id: String(id) }),
  /** Edit (id) or add an FA or a CA of a question. */
  facaEditFaOrCa: (facaInfoId: number, type: 'FA' | 'CA', id?: number): string =>
    withQuery(paths.facaEditFaOrCa, {
      facaInfoId: String(facaInfoId),
      type,
      id: id?.toString(),
    }),
  facaEditTask: (facaInfoId: number, faInfoId: number, caInfoId: number): string =>
    withQuery(paths.facaEditTask, {
      facaInfoId: String(facaInfoId),
      faInfoId: String(faInfoId),
      caInfoId: String(caInfoId),
    }),
  /** The daily (date) or weekly (week) report of machines (comma-separated) up to a day. */
  report: (snCodes: string, alarmType: 'date' | 'week', day?: string): string =>
    withQuery(paths.report, { snCode: snCodes, alarmType, beginTime: day }),
  faultAlarm: (casesId: number): string =>
    withQuery(paths.faultAlarm, { casesId: String(casesId) }),
};

/** Only same-site paths are followed after sign-in, never another origin. */
export const safeRedirect = (
  raw: string | null | undefined,
  fallback: string = paths.home,
): string =>
  raw && raw.startsWith('/') && !raw.startsWith('//') && !raw.startsWith('/\\') ? raw : fallback;
