import type { DingtalkConfig } from '@linewatch/contracts/identity';

/**
 * The part of DingTalk's JSAPI the sign-in uses. Inside DingTalk it comes from dingtalk-jsapi
 * (loaded only there); a page that already has `window.dd` (browser tests stub it, there being no
 * DingTalk runtime outside the app) uses that.
 */
export interface DingtalkJsapi {
  config(options: DingtalkConfig & { jsApiList: string[] }): void;
  ready(callback: () => void): void;
  error(callback: (error: unknown) => void): void;
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
  const { config, ready, error } = core as unknown as Omit<DingtalkJsapi, 'runtime'>;
  return { config, ready, error, runtime: { permission: { requestAuthCode } } };
};

/** Authenticates the page with the server's signature, then asks DingTalk for a sign-in code. */
export const requestDingtalkAuthCode = async (config: DingtalkConfig): Promise<string> => {
  const dd = await loadJsapi();
  return new Promise<string>((resolve, reject) => {
    dd.error(reject);
    dd.config({ ...config, jsApiList: ['runtime.permission.requestAuthCode'] });
    dd.ready(() => {
      dd.runtime.permission
        .requestAuthCode({ corpId: config.corpId })
        .then(({ code }) => resolve(code), reject);
    });
  });
};
