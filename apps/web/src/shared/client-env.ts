/** DingTalk's in-app browser names itself in the user agent. */
export const isDingTalk = (userAgent: string = navigator.userAgent): boolean =>
  /DingTalk/i.test(userAgent);

/** WeChat's in-app browser (MicroMessenger; WeCom adds wxwork to it). */
export const isWeChat = (userAgent: string = navigator.userAgent): boolean =>
  /MicroMessenger/i.test(userAgent);

let loadedAt: string | null = null;

/**
 * Remembers the address the browser loaded the page at (main.tsx, before the router first moves
 * it): `href` without its fragment.
 */
export const rememberLoadedUrl = (href: string = window.location.href): void => {
  loadedAt = href.split('#')[0] ?? href;
};

/**
 * The page as the browser loaded it, which is the page DingTalk checks a JSAPI signature
 * against: "针对VUE单页面应用，鉴权需要对父页面实现，因为计算签名方法不支持路由页面地址"
 * (https://developers.dingtalk.com/document/isvapp/jsapi-authentication). An address the app
 * routed to since (the guard's /login?redirect=…) is not it.
 */
export const loadedUrl = (): string => loadedAt ?? window.location.href.split('#')[0] ?? '';
