/** DingTalk's in-app browser names itself in the user agent. */
export const isDingTalk = (userAgent: string = navigator.userAgent): boolean =>
  /DingTalk/i.test(userAgent);

/** WeChat's in-app browser (MicroMessenger; WeCom adds wxwork to it). */
export const isWeChat = (userAgent: string = navigator.userAgent): boolean =>
  /MicroMessenger/i.test(userAgent);
