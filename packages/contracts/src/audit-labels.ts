// The audit log in Chinese, as the admin's audit page shows it (zod-free: the page loads no schema).

/** What each action the server writes is called (shared/audit.ts on the server writes them). */
export const auditActionLabels: Record<string, string> = {
  'user.create': '新建用户',
  'user.update': '修改用户',
  'user.disable': '停用用户',
  'user.enable': '启用用户',
  'user.resetPassword': '重置密码',
  'application.approve': '批准账号申请',
  'application.reject': '驳回账号申请',
  'line.create': '新建产线',
  'line.update': '修改产线',
  'line.delete': '删除产线',
  'group.create': '新建产品组',
  'group.update': '修改产品组',
  'group.delete': '删除产品组',
  'machine.create': '新建机台',
  'machine.update': '修改机台',
  'machine.delete': '删除机台',
  'machine.import': '导入机台表',
  signIn: '登录',
  'signIn.failed': '登录失败',
  'identity.bind': '绑定账号',
  'identity.unbind': '解绑账号',
  'gateway.register': '注册网关',
  'gateway.rotate': '更换网关密钥',
  'gateway.bind': '机台绑定网关',
  'gateway.unbind': '机台解绑网关',
};

const METHODS: Record<string, string> = { password: '密码', wechat: '微信', dingtalk: '钉钉' };

const REASONS: Record<string, string> = {
  wrongCredentials: '用户名或密码错误',
  throttled: '尝试过多被拦截',
  disabled: '账号已停用',
  authorizationExpired: '授权已失效',
  providerRefused: '平台未认可授权码',
};

const TARGETS: Record<string, string> = {
  user: '用户',
  application: '申请',
  line: '产线',
  group: '产品组',
  machine: '机台',
  gateway: '网关',
  address: '地址',
};

/** `user:E1001` → 用户 E1001; failures past the log's limit for a quarter hour have one entry. */
export const auditTargetLabel = (target: string): string => {
  if (target === 'signIn:overflow') return '其余地址与账号（超出单独记录的上限）';
  const [kind = '', ...rest] = target.split(':');
  const name = rest.join(':');
  if (kind === 'machines') return `${name} 台机台`;
  const label = TARGETS[kind];
  return label ? `${label} ${name}` : target;
};

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const list = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
const named = (values: string[], labels: Record<string, string>) =>
  values.map((v) => labels[v] ?? v).join('、');

/**
 * One line saying what the entry records, or null where the record itself (before / after) is
 * what there is to show. `time` formats an ISO instant for the page.
 */
export const auditSummary = (
  entry: { action: string; after: unknown },
  time: (iso: string) => string,
): string | null => {
  const after = (typeof entry.after === 'object' && entry.after ? entry.after : {}) as Record<
    string,
    unknown
  >;
  switch (entry.action) {
    case 'signIn':
      return `使用${METHODS[text(after.method)] ?? text(after.method)}登录${
        after.address ? `，地址 ${text(after.address)}` : ''
      }`;
    case 'signIn.failed': {
      const parts = [
        `${named(list(after.methods), METHODS)}登录失败 ${Number(after.count) || 0} 次`,
        named(list(after.reasons), REASONS),
      ];
      const accounts = list(after.accounts);
      if (accounts.length > 0) parts.push(`账号 ${accounts.join('、')}`);
      const addresses = list(after.addresses);
      if (addresses.length > 0) parts.push(`地址 ${addresses.join('、')}`);
      if (after.lastAt) parts.push(`最后一次 ${time(text(after.lastAt))}`);
      return parts.filter(Boolean).join('；');
    }
    case 'identity.bind':
      return `绑定${METHODS[text(after.provider)] ?? ''}账号`;
    case 'identity.unbind':
      return `解绑${METHODS[text(after.provider)] ?? ''}账号`;
    case 'user.resetPassword': {
      const unbound = list(after.unbound);
      return unbound.length > 0
        ? `密码已重置，登录全部失效，解绑${named(unbound, METHODS)}`
        : '密码已重置，登录全部失效';
    }
    case 'gateway.register':
      return '网关已注册，密钥只显示一次';
    case 'gateway.rotate':
      return '网关换用新密钥，旧密钥失效';
    case 'gateway.bind': {
      const plc = [text(after.plcIp), text(after.plcModel)].filter(Boolean).join('，');
      const detail = plc || text(after.detail);
      return `机台 ${text(after.snCode)} 绑定到此网关${detail ? `（${detail}）` : ''}`;
    }
    case 'gateway.unbind':
      return `机台 ${text(after.snCode)} 与此网关解绑`;
    default:
      return null;
  }
};
