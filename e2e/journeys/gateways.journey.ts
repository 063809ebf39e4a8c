import { describe, expect, inject, it } from 'vitest';
import { CenterPage } from '../pages/center.page.ts';
import { DeviceListPage } from '../pages/device-list.page.ts';
import { LoginPage } from '../pages/login.page.ts';
import { MaintenancePage } from '../pages/maintenance.page.ts';
import { RealtimeReportPage } from '../pages/realtime-report.page.ts';
import { useJourney } from '../support/journey.ts';
import { currentPath } from '../support/location.ts';
import { links, paths } from '../support/app-paths.ts';

/**
 * The demo factory (apps/server/src/demo/seed.ts): LW-P1-012 has no gateway yet; its PLC, a
 * simulated FX5U of the demo's plc-sim process, answers at 127.0.0.1 on a port of its own (not
 * 502: the technician types it, as a site's PLC label gives it). LWGW00000001 is a running demo
 * gateway (the agent process) whose third machine LW-S1-003, an FX5U read over Modbus (the first
 * two are its OPC UA and S7 machines), is registered with PLC 192.168.10.23:502 unit 1;
 * LWGW00000099 is registered but never online.
 */
const MACHINE = 'LW-P1-012';
const GATEWAY = 'LWGW00000001';
const OFFLINE_GATEWAY = 'LWGW00000099';
const TAKEN_PLC_IP = { ip: '192.168.10.23', by: 'LW-S1-003' };
const BIND = {
  sn: MACHINE,
  serial: GATEWAY,
  'plc-ip': '127.0.0.1',
  'plc-port': String(inject('sparePlcPort')),
  'unit-id': '1',
  'iot-ip1': '10.0.0.1',
  'iot-ip2': '10.0.0.2',
};

describe('gateways: a technician binds a machine to its gateway from the phone, then unbinds it', () => {
  const journey = useJourney('gateways');

  /** Submits and waits for the toast saying `text`; the next screen is the form without it. */
  const submitFor = async (form: MaintenancePage, text: string, shot: string) => {
    await form.submit();
    await form.toast.waitForText(text);
    await form.toast.waitUntilShown();
    await journey.shot(journey.page, shot);
    await form.toast.waitUntilGone();
  };

  it('signs in as the admin and opens 绑定机台 from the personal centre', async () => {
    const { page } = journey;
    const login = new LoginPage(page);
    await login.open();
    await login.fill('admin', 'Admin@2026');
    await login.submit();
    await new DeviceListPage(page).waitUntilLoaded();
    await login.toast.waitUntilGone();
    await new DeviceListPage(page).goToCenter();
    const center = new CenterPage(page);
    await center.waitUntilShown();
    await journey.shot(page, 'center');
    await page.getByTestId('center-bind').tap();
    const bind = new MaintenancePage(page, 'bind');
    await bind.waitUntilShown();
    expect(currentPath(page)).toBe(paths.bindDevice);
    await journey.shot(page, 'bind-empty');
  });

  it('before its bind, the machine reads — on its real-time page, as on its card (issue 25)', async () => {
    const { page } = journey;
    await page.goto(links.currentDataReport(MACHINE));
    const report = new RealtimeReportPage(page);
    await expect.poll(() => report.lastReadingText()).toBe('暂无数据上报');
    // Nothing observed: no figure, not a 0 against its target.
    for (const key of ['ppm', 'produced', 'ok', 'ng', 'dt'] as const)
      expect(await report.productValue(key), key).toBe('—');
    await journey.shot(page, 'no-gateway-realtime');
    await page.goto(paths.bindDevice);
    await new MaintenancePage(page, 'bind').waitUntilShown();
  });

  it('says what each empty or malformed field needs, and sends nothing', async () => {
    const bind = new MaintenancePage(journey.page, 'bind');
    await bind.submit();
    await expect
      .poll(() => bind.errors())
      .toEqual({
        sn: '请输入机台SN码',
        serial: '请输入网关序列号',
        'plc-ip': '请输入正确IP，如：192.168.1.10',
        'iot-ip1': '请输入正确IP，如：192.168.1.2',
        'iot-ip2': '请输入正确IP，如：10.0.0.2',
        'plc-model': '请选择PLC型号',
      });
    await journey.shot(journey.page, 'bind-required');

    // The gateway's IPs may not be the machine's; a serial is letters and digits.
    await bind.fill({
      sn: MACHINE,
      serial: 'LWGW-0001',
      'plc-ip': '192.168.1.300',
      'iot-ip1': '10.0.0.1',
      'iot-ip2': '10.0.0.1',
      'plc-port': '0',
    });
    await bind.submit();
    await expect
      .poll(() => bind.errors())
      .toMatchObject({
        serial: '请输入正确的网关序列号',
        'plc-ip': '请输入正确IP，如：192.168.1.10',
        'plc-port': '请输入正确端口（1-65535），如：502',
      });
    await bind.fill({ 'plc-ip': '10.0.0.1' });
    await bind.submit();
    await expect
      .poll(() => bind.errors())
      .toMatchObject({
        'iot-ip1': '网关IP不能与机台IP相同',
        'iot-ip2': '网关IP不能与机台IP相同',
      });
    expect(await bind.isLoading()).toBe(false);
    await journey.shot(journey.page, 'bind-ip-clash');
  });

  it('is told when the gateway is not registered, or its PLC IP is another machine’s', async () => {
    const bind = new MaintenancePage(journey.page, 'bind');
    await bind.fill({ ...BIND, serial: 'NOSUCHGW0001' });
    await bind.chooseModel('三菱 FX5U');
    await submitFor(bind, '网关NOSUCHGW0001未登记，请联系管理员', 'bind-unknown-gateway');
    // IP, port and unit id together name a PLC: LW-S1-003's three are taken.
    await bind.fill({ serial: GATEWAY, 'plc-ip': TAKEN_PLC_IP.ip, 'plc-port': '502' });
    await submitFor(
      bind,
      `PLC ${TAKEN_PLC_IP.ip}:502 站号1 已被机台${TAKEN_PLC_IP.by}使用`,
      'bind-plc-ip-taken',
    );
    // Refused: the form keeps what was typed.
    expect(await bind.input('sn').inputValue()).toBe(MACHINE);
  });

  it('waits, loading, for a gateway that is offline and says it does not answer', async () => {
    const bind = new MaintenancePage(journey.page, 'bind');
    await bind.fill({ ...BIND, serial: OFFLINE_GATEWAY });
    await bind.submit();
    await expect.poll(() => bind.isLoading()).toBe(true);
    await journey.shot(journey.page, 'bind-waiting');
    await bind.toast.waitForText('网关无响应，请检查网关是否在线');
    await bind.toast.waitUntilShown();
    expect(await bind.isLoading()).toBe(false);
    await journey.shot(journey.page, 'bind-gateway-offline');
    await bind.toast.waitUntilGone();
  });

  it('shows 连接异常 when the socket fails, and binds once it connects again', async () => {
    const { page } = journey;
    const bind = new MaintenancePage(page, 'bind');
    // The first connection is cut as a dropped mobile network would cut it; the retry goes through.
    let cut = 0;
    await page.routeWebSocket(/_maintain$/, (socket) => {
      if (cut++ === 0) return socket.close();
      socket.connectToServer();
    });
    await bind.fill(BIND);
    await bind.submit();
    await bind.toast.waitForText('连接异常');
    await bind.toast.waitUntilShown();
    expect(await bind.isLoading()).toBe(true);
    await journey.shot(page, 'bind-connection-error');
    // Code 200: 绑定成功 and the form is empty again.
    await bind.toast.waitForText('绑定成功');
    await bind.toast.waitUntilShown();
    await journey.shot(page, 'bind-success');
    // Port and unit id return to Modbus TCP's 502 and unit 1.
    await expect.poll(() => bind.values()).toEqual(['', '', '', '502', '1', '', '']);
    expect(cut).toBe(2);
    await page.unrouteAll();
    await bind.toast.waitUntilGone();
    await journey.shot(page, 'bind-cleared');
  });

  it('sees the machine live in the list: its gateway reads its PLC over Modbus', async () => {
    const { page } = journey;
    const list = new DeviceListPage(page);
    await list.open();
    await list.searchFor(MACHINE);
    await expect
      .poll(async () => {
        const card = list.cards.first();
        if ((await card.getAttribute('data-sn')) !== MACHINE) return 'not shown';
        return (await list.readCard(card)).status;
      })
      .toMatch(/^(running|standBy|error)$/);
    await journey.shot(page, 'machine-live');
  });

  it('unbinds it from 解绑机台: both fields required, the serial 12 characters', async () => {
    const { page } = journey;
    await page.goto(paths.center);
    await new CenterPage(page).waitUntilShown();
    await page.getByTestId('center-unbind').tap();
    const unbind = new MaintenancePage(page, 'unbind');
    await unbind.waitUntilShown();
    expect(currentPath(page)).toBe(paths.unboundDevice);
    await journey.shot(page, 'unbind-empty');

    await unbind.fill({ sn: MACHINE });
    await unbind.submit();
    await expect.poll(() => unbind.errors()).toEqual({ serial: '请将数据填写完整' });
    await unbind.fill({ serial: 'LWGW0001' });
    await unbind.submit();
    await expect.poll(() => unbind.errors()).toEqual({ serial: '请输入正确的网关序列号' });
    await journey.shot(page, 'unbind-bad-serial');

    await unbind.fill({ serial: GATEWAY });
    await submitFor(unbind, '解绑成功', 'unbind-success');
    expect(await unbind.values()).toEqual(['', '']);
    await journey.shot(page, 'unbind-cleared');
  });
});
