/**
 * The part of DingTalk's JSAPI the sign-in uses. Inside DingTalk it comes from dingtalk-jsapi
 * (loaded only there); a page that already has `window.dd` (browser tests stub it, there being no
 * DingTalk runtime outside the app) uses that.
 */
export interface DingtalkJsapi {
  ready(callback: () => void): void;
  runtime: {
    permission: { requestAuthCode(params: { corpId: string }): Promise<{ code: string }> };
  };
}

declare global {
  interface Window {
    dd?: DingtalkJsapi;
  }
}

const loadJsapi = async (): Promise<DingtalkJsapi> => {
  if (window.dd) return window.dd;
  const [core, { default: requestAuthCode }] = await Promise.all([
    import('dingtalk-jsapi/core'),
    import('dingtalk-jsapi/api/runtime/permission/requestAuthCode'),
  ]);
  const { ready } = core as unknown as Pick<DingtalkJsapi, 'ready'>;
  return { ready, runtime: { permission: { requestAuthCode } } };
};

/**
 * Asks DingTalk who this is: an auth code (valid once, five minutes). No dd.config first: "调用此
 * api不需要进行鉴权（即不需要进行dd.config）" (dingtalk-jsapi's runtime.permission.requestAuthCode),
 * and once dd.config is called, dingtalk-jsapi holds dd.ready until DingTalk accepts the
 * signature (lib/sdk/index.js: ready waits on the config), so a signature DingTalk refused would
 * stop the sign-in. The page uses no JSAPI that needs one.
 */
export const requestDingtalkAuthCode = async (corpId: string): Promise<string> => {
  const dd = await loadJsapi();
  return new Promise<string>((resolve, reject) => {
    dd.ready(() => {
      dd.runtime.permission.requestAuthCode({ corpId }).then(({ code }) => resolve(code), reject);
    });
  });
};
