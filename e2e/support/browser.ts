import { accessSync, constants } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** An Android phone's Chrome: not WeChat or DingTalk, so the plain login page is shown. */
const PHONE_USER_AGENT =
  'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) ' +
  'Chrome/156.0.0.0 Mobile Safari/537.36';

const chromiumPath = (): string => process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Fails loudly when the browser is missing: a journey that does not run must not look green. */
export const assertChromium = (): void => {
  const path = chromiumPath();
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new Error(
      `Chromium was not found at ${path}. Install it with ` +
        '`apt-get install -y chromium fonts-wqy-microhei chromium-l10n` (the Chinese glyphs, and the ' +
        "browser's own controls in Chinese), " +
        'or set CHROMIUM_PATH to a Chromium executable.',
    );
  }
};

export const launchBrowser = async (): Promise<Browser> => {
  assertChromium();
  return chromium.launch({
    executablePath: chromiumPath(),
    args: CHROMIUM_FLAGS,
    // The phone's own language for what the browser draws itself (a date input's format): the
    // context's locale covers the page's Intl and Accept-Language only, and chromium on Linux
    // takes its UI language from LANGUAGE. The C locale stays UTF-8: a download's Chinese file
    // name needs it.
    env: { ...process.env, LANGUAGE: 'zh_CN', LC_ALL: 'C.UTF-8' },
  });
};

/** The user agents of WeChat's and DingTalk's in-app browsers (what the app detects them by). */
export const IN_APP_USER_AGENTS = {
  wechat: `${PHONE_USER_AGENT} XWEB/1160117 MMWEBSDK/20240301 MicroMessenger/8.0.48.2580(0x28003052) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64`,
  dingtalk: `${PHONE_USER_AGENT} AliApp(DingTalk/7.5.20) com.alibaba.android.rimet/36412542 Channel/227200 language/zh-CN abi/64 UT4Aplus/0.2.25 colorScheme/light`,
} as const;

/** A fresh phone (375×667, touch, Chinese locale) with no cookies or storage. */
export const newPhone = (
  browser: Browser,
  baseURL: string,
  userAgent: string = PHONE_USER_AGENT,
): Promise<BrowserContext> =>
  browser.newContext({
    baseURL,
    viewport: { width: 375, height: 667 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    userAgent,
  });
