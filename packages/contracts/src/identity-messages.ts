// A module of its own: the login screen shows these at once but loads the schemas (and zod) only
// when the form is submitted.
export const identityMessages = {
  usernameRequired: '用户名不能为空',
  passwordRequired: '密码不能为空',
  loginOk: '登录成功',
  loginFailed: '登录失败',
  wrongCredentials: '用户名或密码错误',
  accountDisabled: '账号已停用，请联系管理员',
  logoutConfirm: '此操作将解绑当前账号并退出登录，是否继续？',
  // docs/product.md section 8
  openIdFailed: '获取openid失败',
  noCode: '未获取到code',
  dingTalkNotBound: '钉钉未绑定用户请登录',
  // not in the spec: a sign-in that only ends the session, and refusals the spec does not name
  logoutConfirmPlain: '确定退出登录吗？',
  authorizationExpired: '授权已失效，请重新进入',
  urlRequired: '缺少页面地址',
  urlNotOurs: '页面地址不属于本应用',
} as const;
