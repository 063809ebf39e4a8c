import type { Locator, Page } from 'playwright-core';

/** /messages: the in-app inbox. */
export class MessagesPage {
  readonly items: Locator;
  readonly unread: Locator;
  readonly readAll: Locator;

  constructor(page: Page) {
    this.items = page.getByTestId('message-item');
    this.unread = page.getByTestId('messages-unread');
    this.readAll = page.getByTestId('messages-read-all');
  }

  /** The newest message that holds every one of these texts. */
  item(...texts: string[]): Locator {
    return texts.reduce((found, text) => found.filter({ hasText: text }), this.items).first();
  }

  async titles(): Promise<string[]> {
    return (await this.items.locator('.adm-list-item-content-main').allTextContents()).map((t) =>
      t.trim(),
    );
  }
}

/** /report: the daily/weekly report's tabs. */
export class ReportPage {
  readonly title: Locator;
  readonly chart: Locator;
  readonly download: Locator;
  readonly alarmTable: Locator;
  readonly noDevice: Locator;

  constructor(private readonly page: Page) {
    this.title = page.getByTestId('report-title');
    this.chart = page.getByTestId('report-chart');
    this.download = page.getByTestId('report-download');
    this.alarmTable = page.getByTestId('report-tab-alarm').locator('table');
    this.noDevice = page.getByTestId('report-no-device');
  }

  /** How many lines an element's text is laid out on (a wrapped label is more than one). */
  async textLines(element: Locator): Promise<number> {
    return element.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    });
  }

  async openTab(name: '三参数' | 'DT' | '报警记录'): Promise<void> {
    await this.page.locator('.adm-tabs-tab', { hasText: name }).tap();
    await this.chart.locator('svg').first().waitFor();
  }
}

/** /set: channels and account. */
export class SetPage {
  readonly save: Locator;
  readonly wechat: Locator;
  readonly dingtalk: Locator;

  constructor(page: Page) {
    this.save = page.getByTestId('set-save');
    this.wechat = page.getByTestId('set-wechat');
    this.dingtalk = page.getByTestId('set-dingtalk');
  }

  /** A channel's row: its name, its switch and why it is off. */
  channel(name: '站内消息' | '微信模板消息' | '钉钉工作通知'): Locator {
    return this.save.page().locator('.adm-list-item', { hasText: name });
  }
}

/** /faultAlarm: a public troubleshooting case. */
export class FaultAlarmPage {
  readonly content: Locator;
  readonly sn: Locator;
  readonly carousels: Locator;
  readonly items: Locator;
  readonly video: Locator;

  constructor(page: Page) {
    this.content = page.getByTestId('fault-content');
    this.sn = page.getByTestId('fault-sn');
    this.carousels = page.getByTestId('fault-carousel');
    this.items = page.getByTestId('fault-item');
    this.video = page.getByTestId('fault-video');
  }

  /** Waits until the first carousel's first picture has loaded (antd-mobile shows a placeholder before). */
  async waitForPictures(): Promise<void> {
    await this.carousels
      .first()
      .locator('img')
      .first()
      .evaluate(
        (img: HTMLImageElement) =>
          new Promise<void>((resolve, reject) => {
            if (img.complete && img.naturalWidth > 0) return resolve();
            img.addEventListener('load', () => resolve(), { once: true });
            img.addEventListener('error', () => reject(new Error(`no picture ${img.src}`)), {
              once: true,
            });
          }),
      );
  }

  /** Loads the guidance video's metadata and gives its length and picture size. */
  videoMetadata(): Promise<{ duration: number; width: number; height: number }> {
    return this.video.evaluate(
      (video: HTMLVideoElement) =>
        new Promise((resolve, reject) => {
          const done = () =>
            resolve({
              duration: video.duration,
              width: video.videoWidth,
              height: video.videoHeight,
            });
          if (video.readyState >= HTMLMediaElement.HAVE_METADATA) return done();
          video.addEventListener('loadedmetadata', done, { once: true });
          video.addEventListener(
            'error',
            () => reject(new Error(`video error ${video.error?.code}`)),
            {
              once: true,
            },
          );
        }),
    );
  }
}
