/** DingTalk's in-app browser names itself in the user agent. */
export const isDingTalk = (userAgent: string = navigator.userAgent): boolean =>
  /DingTalk/i.test(userAgent);
