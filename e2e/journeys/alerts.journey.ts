import ExcelJS from 'exceljs';
import type { Endpoint } from '@linewatch/contracts/endpoint';
import { identityApi } from '@linewatch/contracts/identity-api';
import { KEY_ID_COOKIE, KEY_ID_HEADER } from '@linewatch/contracts/limits';
import { subscriptionsApi } from '@linewatch/contracts/subscriptions-api';
import { describe, expect, inject, it } from 'vitest';
import { FaultAlarmPage, MessagesPage, ReportPage, SetPage } from '../pages/alerts.page.ts';
import { CenterPage } from '../pages/center.page.ts';
import { LoginPage } from '../pages/login.page.ts';
import { FollowSettingPage, SubscriptionListPage } from '../pages/subscriptions.page.ts';
import { Toast } from '../pages/toast.ts';
import { links, paths } from '../support/app-paths.ts';
import { useJourney } from '../support/journey.ts';
import { currentPath } from '../support/location.ts';
import { waitUntilDrawn, waitUntilSettled } from '../support/settle.ts';
import { daysAgo } from '../support/factory-day.ts';

/**
 * LW-S1-005 waits for maintenance in the demo (apps/server/src/demo/seed.ts): in fault with E518
 * 温度过高 since two hours before the demo was seeded, so a stop reminder of 5 minutes is due at
 * once. The operator follows it with alarm messages on: a fresh demo's first reading of it raises
 * E518, which leaves an alarm message linking to the E518 troubleshooting case.
 */
const IN_FAULT = 'LW-S1-005';
/** The operator's other follows in the demo, both on the list's first page. */
const FOLLOWED = ['LW-S1-001', 'LW-S1-002'];

describe('alerts: an operator subscribes to a machine and hears about it', () => {
  const journey = useJourney('alerts');
  /** The page's own session (its keyId cookie), as another client holding it would use it. */
  const keyIdOfPage = async () =>
    (await journey.page.context().cookies()).find((c) => c.name === KEY_ID_COOKIE)?.value ?? '';
  const asOperator = async <Input, Reply>(endpoint: Endpoint<Input, Reply>, body: Input) => {
    const reply = await fetch(inject('baseUrl') + endpoint.path, {
      method: endpoint.method,
      headers: { 'content-type': 'application/json', [KEY_ID_HEADER]: await keyIdOfPage() },
      body: JSON.stringify(body),
    });
    const envelope = (await reply.json()) as { code: string; msg: string };
    expect(envelope.code, envelope.msg).toBe('0000');
  };
  const list = () => new SubscriptionListPage(journey.page);
  const settings = () => new FollowSettingPage(journey.page);
  const toast = () => new Toast(journey.page);

  /** The failure toast a step expects, pictured, then gone so the next picture is the screen. */
  const expectToast = async (text: string, shot: string) => {
    await toast().waitForText(text);
    await toast().waitUntilShown();
    await journey.shot(journey.page, shot);
    await toast().waitUntilGone();
  };

  it('signs in and opens the subscription list', async () => {
    const { page } = journey;
    await page.goto(links.login(paths.subscription));
    await new LoginPage(page).signIn('operator', 'Operator@2026');
    await list().waitUntilLoaded();
    expect(currentPath(page)).toBe(paths.subscription);
    expect(await list().rows.count()).toBe(20);
    expect(await list().subscribedTag(IN_FAULT).count()).toBe(1);
    await toast().waitUntilGone();
    await journey.shot(page, 'subscription-list');
  });

  it('sees a new alarm message on the 个人中心 tab and its 消息 row without a reload', async () => {
    const { page } = journey;
    await page.goto(paths.center);
    const center = new CenterPage(page);
    await center.waitUntilShown();
    // The inbox is asked once the page is up: what it holds now (the E518 alarm message, maybe).
    await page.waitForLoadState('networkidle');
    const before = Number((await center.tabBadge()) || 0);
    expect(await center.messagesBadge()).toBe(before ? String(before) : '');
    await journey.shot(page, 'center-unread-before');
    // A stop reminder of 5 minutes turned on elsewhere: LW-S1-005 has been in fault for hours,
    // so the engine writes a 停机提醒 message within its next look (every 15 s of readings).
    await asOperator(subscriptionsApi.addFollow, {
      snCode: IN_FAULT,
      alarm: true,
      realTimeReminder: true,
      timeLength: 5 * 60_000,
    });
    const url = page.url();
    await expect
      .poll(async () => Number((await center.tabBadge()) || 0), {
        timeout: 60_000,
        interval: 1_000,
      })
      .toBeGreaterThan(before);
    expect(await center.messagesBadge()).toBe(await center.tabBadge());
    expect(page.url()).toBe(url);
    await journey.shot(page, 'center-new-unread');
    // Back as the demo has it (alarm messages on, nothing else): the next steps start from there.
    await asOperator(subscriptionsApi.addFollow, { snCode: IN_FAULT, alarm: true });
    await page.goto(paths.subscription);
    await list().waitUntilLoaded();
  });

  it('swipes a machine to the left and edits its subscription', async () => {
    await list().swipe(IN_FAULT);
    await journey.shot(journey.page, 'swiped');
    await list().action(IN_FAULT, '编辑').tap();
    await settings().waitUntilShown();
    expect(currentPath(journey.page)).toBe(links.followSetting([IN_FAULT]));
    expect(await settings().machines.textContent()).toBe(IN_FAULT);
    // As the demo has it: alarm messages on, nothing else.
    expect(await settings().isOn(settings().alarm)).toBe(true);
    expect(await settings().isOn(settings().reminder)).toBe(false);
  });

  it('turns on a 5-minute stop reminder with the duration picker', async () => {
    await settings().reminder.tap();
    await expect.poll(() => settings().duration.textContent()).toContain('0小时0分钟');
    await settings().duration.tap();
    const picker = settings().picker();
    await waitUntilSettled(picker);
    // Hours 0–1, minutes 0–55 in steps of 5 (docs/product.md section 9).
    const columns = picker.locator('.adm-picker-view-column');
    expect(await columns.nth(0).locator('.adm-picker-view-column-item').allTextContents()).toEqual([
      '0小时',
      '1小时',
    ]);
    expect(await columns.nth(1).locator('.adm-picker-view-column-item').allTextContents()).toEqual(
      Array.from({ length: 12 }, (_, i) => `${i * 5}分钟`),
    );
    await journey.shot(journey.page, 'settings-duration-picker');
    await picker.locator('.adm-picker-header-button', { hasText: '取消' }).tap();
    await picker.waitFor({ state: 'hidden' });
    await settings().chooseDuration(0, 5);
    await expect.poll(() => settings().duration.textContent()).toContain('0小时5分钟');
  });

  it('needs a report type when statistics is checked, then saves', async () => {
    const s = settings();
    await s.statistics.tap();
    expect(await s.checked('follow-daily')).toBe(true);
    expect(await s.checked('follow-week')).toBe(true);
    await s.daily.tap();
    await s.week.tap();
    expect(await s.checked('follow-statistics')).toBe(true);
    await s.save.tap();
    await expectToast('若选择统计，则至少选择一种报表类型', 'settings-needs-report-type');
    await s.week.tap();
    await journey.shot(journey.page, 'settings');
    await s.save.tap();
    await list().waitUntilLoaded();
    expect(currentPath(journey.page)).toBe(paths.subscription);
    await toast().waitUntilGone();
    // Saved: the settings read back as chosen.
    await list().swipe(IN_FAULT);
    await list().action(IN_FAULT, '编辑').tap();
    await s.waitUntilShown();
    await expect.poll(() => s.duration.textContent()).toContain('0小时5分钟');
    expect(await s.checked('follow-week')).toBe(true);
    expect(await s.checked('follow-daily')).toBe(false);
    await journey.page.goBack();
    await list().waitUntilLoaded();
  });

  it('asks for a selection before a batch action, then selects all and sets them together', async () => {
    await list().selectMode.tap();
    await list().batchCancel.tap();
    await expectToast('请先选择机台', 'batch-needs-selection');
    await list().batchSet.tap();
    await expectToast('请先选择机台', 'batch-set-needs-selection');
    await list().selectAll.tap();
    await expect.poll(() => list().selectAll.textContent()).toContain('全选（20）');
    await journey.shot(journey.page, 'batch-all-selected');
    await list().batchSet.tap();
    await settings().waitUntilShown();
    expect(await settings().machines.textContent()).toMatch(/^已选 20 台：.+…$/);
    await journey.shot(journey.page, 'batch-settings');
    await journey.page.goBack();
    await list().waitUntilLoaded();
  });

  it('cancels two subscriptions at once', async () => {
    await list().selectMode.tap();
    for (const sn of FOLLOWED) {
      expect(await list().subscribedTag(sn).count()).toBe(1);
      await list().row(sn).tap();
    }
    await expect.poll(() => list().selectAll.textContent()).toContain('全选（2）');
    // Asked first; a cancel of the question says 取消操作 and changes nothing.
    await list().batchCancel.tap();
    let question = await list().confirmation();
    expect(await question.textContent()).toContain('确定取消所选 2 台机台的订阅？');
    await journey.shot(journey.page, 'batch-cancel-confirm');
    await list().answer(question, '取消');
    await expectToast('取消操作', 'batch-cancel-cancelled');
    for (const sn of FOLLOWED) expect(await list().subscribedTag(sn).count()).toBe(1);
    await list().batchCancel.tap();
    question = await list().confirmation();
    await list().answer(question, '确定');
    await toast().waitForText('已取消订阅');
    for (const sn of FOLLOWED) await list().subscribedTag(sn).waitFor({ state: 'detached' });
    expect(await list().subscribedTag(IN_FAULT).count()).toBe(1);
    await toast().waitUntilGone();
    await journey.shot(journey.page, 'batch-cancelled');
    await list().selectMode.tap();
  });

  it('finds the alarm and the stop reminder in the inbox', async () => {
    await journey.page.goto(paths.messages);
    const inbox = new MessagesPage(journey.page);
    const alarm = inbox.item(IN_FAULT, '报警');
    await alarm.waitFor();
    expect(await alarm.textContent()).toContain('E518 温度过高');
    // The engine looks a stopped machine's subscribers up again every 15 s of its readings; the
    // inbox shows what it held when opened.
    const reminder = inbox.item(IN_FAULT, '停机提醒');
    await expect
      .poll(
        async () => {
          await journey.page.reload();
          await inbox.items.first().waitFor();
          return reminder.count();
        },
        { timeout: 60_000, interval: 2_000 },
      )
      .toBe(1);
    expect(await reminder.textContent()).toContain('已故障停机超过5分钟');
    expect(Number(await inbox.unread.textContent())).toBeGreaterThanOrEqual(2);
    await journey.shot(journey.page, 'inbox');
  });

  it('opens the alarm message: its troubleshooting case with pictures, steps and a video', async () => {
    const inbox = new MessagesPage(journey.page);
    const unread = Number(await inbox.unread.textContent());
    await inbox.item(IN_FAULT, '报警').tap();
    const guide = new FaultAlarmPage(journey.page);
    await guide.content.waitFor();
    expect(currentPath(journey.page)).toMatch(/^\/faultAlarm\?casesId=\d+$/);
    expect(await guide.content.textContent()).toContain('E518 温度过高');
    expect(await guide.sn.textContent()).toBe(IN_FAULT);
    expect((await guide.carousels.first().boundingBox())?.height).toBe(200);
    const video = await guide.videoMetadata();
    expect(video.duration).toBeGreaterThan(5);
    expect(video).toMatchObject({ width: 320, height: 180 });
    await guide.video.scrollIntoViewIfNeeded();
    await journey.shot(journey.page, 'fault-alarm-video');
    await journey.page.goBack();
    await expect.poll(async () => Number(await inbox.unread.textContent())).toBe(unread - 1);
  });

  it('reads the daily report, tab by tab, and downloads it as a workbook', async () => {
    await journey.page.goto(links.report(IN_FAULT, 'date', daysAgo(0)));
    const report = new ReportPage(journey.page);
    await waitUntilDrawn(report.chart);
    expect(await report.title.textContent()).toContain(IN_FAULT);
    await journey.shot(journey.page, 'report-three-parameters');
    await report.openTab('DT');
    await waitUntilDrawn(report.chart);
    await journey.shot(journey.page, 'report-dt');
    await report.openTab('报警记录');
    await waitUntilDrawn(report.chart);
    expect(await report.alarmTable.textContent()).toContain('E518');
    await journey.shot(journey.page, 'report-alarms');

    const [download] = await Promise.all([
      journey.page.waitForEvent('download'),
      report.download.tap(),
    ]);
    // Named by machine, kind and day (the server's Content-Disposition), never "download".
    expect(download.suggestedFilename()).toBe(`${IN_FAULT}-日报-${daysAgo(0)}.xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(await download.path());
    expect(book.worksheets.map((w) => w.name)).toEqual(['三参数', 'DT', '报警记录']);
    const alarms = book.getWorksheet('报警记录')!;
    expect(alarms.getCell('A1').text).toContain(IN_FAULT);
    expect(alarms.getCell('A1').text).toContain(`日报 ${daysAgo(0)}`);
    expect(alarms.getRow(2).values).toContain('报警代码');
    const codes = alarms.getColumn(1).values.slice(3);
    expect(codes).toContain('E518');
    // The manual's advice beside each alarm, not an empty 人工描述.
    const rows = alarms.getColumn(1).values.length - 3;
    expect(rows).toBeGreaterThan(0);
    for (let row = 3; row < 3 + rows; row++) expect(alarms.getCell(row, 6).text).not.toBe('');
  });

  it('reads the weekly report with its download on one line and a workbook of real dates', async () => {
    await journey.page.goto(links.report(IN_FAULT, 'week', daysAgo(1)));
    const report = new ReportPage(journey.page);
    await waitUntilDrawn(report.chart);
    // 下载Excel on one line at 375 px beside the long weekly title.
    expect(await report.textLines(report.download)).toBe(1);
    // The title may wrap between its parts, never inside an SN or a date.
    for (const part of await report.title.locator('span').all())
      expect(await report.textLines(part)).toBe(1);
    await journey.shot(journey.page, 'report-weekly');
    const [download] = await Promise.all([
      journey.page.waitForEvent('download'),
      report.download.tap(),
    ]);
    expect(download.suggestedFilename()).toBe(`${IN_FAULT}-周报-${daysAgo(1)}.xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(await download.path());
    const dt = book.getWorksheet('DT')!;
    expect(dt.getCell('A1').text).toMatch(
      new RegExp(`^${IN_FAULT}.* 周报 \\d{4}-\\d{2}-\\d{2} 至 ${daysAgo(1)}$`),
    );
    // Days as Excel dates shown yyyy-mm-dd in a column wide enough for them.
    const first = dt.getCell('A3');
    expect(first.value).toBeInstanceOf(Date);
    expect(first.numFmt).toBe('yyyy-mm-dd');
    expect(dt.getColumn(1).width).toBeGreaterThanOrEqual(10);
  });

  it('says 当前无选择设备 on a report without a machine', async () => {
    await journey.page.goto(paths.report);
    const report = new ReportPage(journey.page);
    await report.noDevice.waitFor();
    expect(await report.noDevice.textContent()).toContain('当前无选择设备');
    await journey.shot(journey.page, 'report-no-device');
  });

  it('opens the settings page with the channels and the account', async () => {
    await journey.page.goto(paths.set);
    const set = new SetPage(journey.page);
    await set.save.waitFor();
    // Signed in with a password: WeChat and DingTalk messages need a sign-in through them.
    await expect
      .poll(() => set.channel('微信模板消息').textContent())
      .toContain('通过微信登录后可用');
    expect(await set.channel('钉钉工作通知').textContent()).toContain('通过钉钉登录后可用');
    expect(await set.channel('站内消息').textContent()).toContain('始终开启');
    for (const channel of [set.wechat, set.dingtalk]) {
      const switchClass = await channel.getAttribute('class');
      expect(switchClass).toContain('adm-switch-disabled');
      expect(switchClass).not.toContain('adm-switch-checked');
    }
    await journey.shot(journey.page, 'set');
  });

  it('deletes the subscription with a swipe', async () => {
    await journey.page.goto(paths.subscription);
    await list().waitUntilLoaded();
    // A machine not subscribed offers no 删除 (LW-S1-001 was cancelled above).
    await list().swipe(FOLLOWED[0]!);
    expect(await list().action(FOLLOWED[0]!, '删除').count()).toBe(0);
    await journey.shot(journey.page, 'swipe-not-subscribed');
    await journey.page.reload();
    await list().waitUntilLoaded();
    await list().swipe(IN_FAULT);
    await list().action(IN_FAULT, '删除').tap();
    const question = await list().confirmation();
    expect(await question.textContent()).toContain(`确定取消 ${IN_FAULT} 的订阅？`);
    await list().answer(question, '确定');
    await toast().waitForText('已取消订阅');
    await journey.shot(journey.page, 'swipe-deleted-toast');
    await list().subscribedTag(IN_FAULT).waitFor({ state: 'detached' });
    await toast().waitUntilGone();
    await journey.shot(journey.page, 'swipe-deleted');
  });

  it('opens a fault-alarm guide signed out, as a link in a message would', async () => {
    const tab = await journey.page
      .context()
      .browser()!
      .newContext({ viewport: { width: 375, height: 667 }, deviceScaleFactor: 2 });
    const page = await tab.newPage();
    try {
      await page.goto(new URL(links.faultAlarm(5), journey.page.url()).toString());
      const guide = new FaultAlarmPage(page);
      await guide.content.waitFor();
      expect(await guide.content.textContent()).toContain('E518 温度过高');
      expect((await guide.carousels.first().boundingBox())?.height).toBe(200);
      expect(currentPath(page)).toBe(links.faultAlarm(5));
      await guide.waitForPictures();
      await journey.shot(page, 'fault-alarm');
    } finally {
      await tab.close();
    }
  });

  it('says 请重新登录 on the login page when the session ends elsewhere, then goes back', async () => {
    const { page } = journey;
    await page.goto(paths.center);
    const center = new CenterPage(page);
    await center.waitUntilShown();
    // The session ends server-side: signed out by another client holding the same session.
    const keyId = await keyIdOfPage();
    const out = await fetch(inject('baseUrl') + identityApi.signOut.path, {
      method: 'POST',
      headers: { [KEY_ID_HEADER]: keyId },
    });
    expect(out.status).toBe(200);
    // The user acts (opens 消息): the next request is refused with 0405. (The badge's poll may
    // be refused first; either way the app lands on the login page.)
    await page
      .getByTestId('center-messages')
      .tap({ timeout: 5_000 })
      .catch(() => {});
    const login = new LoginPage(page);
    await page.getByTestId('login-reason').waitFor();
    expect(currentPath(page)).toMatch(/^\/login\?/);
    expect(await page.getByTestId('login-reason').textContent()).toBe('请重新登录');
    const redirect = new URL(page.url()).searchParams.get('redirect');
    await toast().waitUntilGone();
    await journey.shot(page, 'session-expired-login');
    await login.signIn('operator', 'Operator@2026');
    await expect.poll(() => currentPath(page)).toBe(redirect);
  });
});
