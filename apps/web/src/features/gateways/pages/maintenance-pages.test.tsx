import { gatewaysApi } from '@linewatch/contracts/gateways-api';
import { screen } from '@testing-library/react';
import { Toast } from 'antd-mobile';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from '../../../shared/paths.ts';
import { fakeApi } from '../../../testing/fake-api.ts';
import { FakeSocket } from '../../../testing/fake-socket.ts';
import { renderPage } from '../../../testing/render-page.tsx';

const toasts = () =>
  vi.mocked(Toast.show).mock.calls.map(([props]) => (props as { content: string }).content);

beforeEach(() => {
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.spyOn(Toast, 'show').mockImplementation(() => ({ close: () => {} }));
});
afterEach(() => {
  FakeSocket.last = null;
  vi.mocked(Toast.show).mockRestore();
});

const api = () =>
  fakeApi().on(gatewaysApi.plcModels, () => [
    { label: '三菱 FX5U', value: 'FX5U', protocol: 'modbus', port: 502 },
    { label: '西门子 S7-1200', value: 'S7-1200', protocol: 'modbus', port: 502 },
    { label: 'OPC UA 服务器', value: 'OPCUA-LW', protocol: 'opcua', port: 4840 },
    { label: '西门子 S7-1200 (S7)', value: 'S7-1200-S7', protocol: 's7', port: 102 },
  ]);

/** The page is loaded lazily: a busy machine takes a few seconds the first time. */
const ready = (name: string) => screen.findByRole('textbox', { name }, { timeout: 15_000 });

/** A field's input and its message (an alert named by the field), by the field's label. */
const field = (name: string) => screen.getByRole<HTMLInputElement>('textbox', { name });
const errorOf = (name: string) => screen.getByRole('alert', { name }).textContent;

describe('bind machine page', () => {
  const fill = async (
    user: ReturnType<typeof renderPage>['user'],
    values: Record<string, string>,
  ) => {
    for (const [name, value] of Object.entries(values)) await user.type(field(name), value);
  };

  it(
    'shows the spec’s messages for an empty form and a gateway IP equal to the machine IP',
    { timeout: 30_000 },
    async () => {
      const { user } = renderPage(paths.bindDevice, { api: api() });
      await ready('机台SN码');
      await user.click(screen.getByRole('button', { name: '绑定' }));
      await vi.waitFor(() => expect(errorOf('机台SN码')).toBe('请输入机台SN码'));
      expect(errorOf('网关序列号')).toBe('请输入网关序列号');
      expect(errorOf('机台IP')).toBe('请输入正确IP，如：192.168.1.10');
      expect(errorOf('网关IP1')).toBe('请输入正确IP，如：192.168.1.2');
      expect(errorOf('网关IP2')).toBe('请输入正确IP，如：10.0.0.2');
      expect(errorOf('PLC型号')).toBe('请选择PLC型号');

      await fill(user, {
        机台SN码: 'SN-1',
        网关序列号: 'GW0000000001',
        机台IP: '192.168.1.10',
        网关IP1: '192.168.1.10',
        网关IP2: '10.0.0.2',
      });
      await user.click(screen.getByText('三菱 FX5U'));
      // Port and unit id start at Modbus TCP's 502 and unit 1; out of range, they say so.
      expect(field('机台端口').value).toBe('502');
      expect(field('站号').value).toBe('1');
      for (const id of ['机台端口', '站号']) await user.clear(field(id));
      await fill(user, { 机台端口: '70000', 站号: '256' });
      await user.click(screen.getByRole('button', { name: '绑定' }));
      await vi.waitFor(() => expect(errorOf('网关IP1')).toBe('网关IP不能与机台IP相同'));
      expect(errorOf('机台端口')).toBe('请输入正确端口（1-65535），如：502');
      expect(errorOf('站号')).toBe('请输入正确站号（0-255），如：1');
      expect(FakeSocket.last).toBeNull();
    },
  );

  it(
    'sets the port to the picked model’s unless the user typed one',
    { timeout: 30_000 },
    async () => {
      const { user } = renderPage(paths.bindDevice, { api: api() });
      await ready('机台SN码');
      const port = () => field('机台端口');
      expect(port().value).toBe('502');
      await user.click(await screen.findByText('OPC UA 服务器'));
      await vi.waitFor(() => expect(port().value).toBe('4840'));
      await user.click(screen.getByText('西门子 S7-1200 (S7)'));
      await vi.waitFor(() => expect(port().value).toBe('102'));
      await user.clear(port());
      await user.type(port(), '5020');
      await user.click(screen.getByText('三菱 FX5U'));
      expect(port().value).toBe('5020');
    },
  );

  it('keeps the serial to 12 characters', async () => {
    const { user } = renderPage(paths.bindDevice, { api: api() });
    await ready('网关序列号');
    await screen.findByText('三菱 FX5U');
    await fill(user, { 网关序列号: 'ABCDEFGHIJKLMNOP' });
    expect(field('网关序列号').value).toBe('ABCDEFGHIJKL');
  });

  it(
    'sends the bind payload on the gateway’s maintenance socket; 200 clears the form, another Code shows its Content',
    { timeout: 30_000 },
    async () => {
      const { user } = renderPage(paths.bindDevice, { api: api() });
      await ready('机台SN码');
      const submit = async (pickModel: boolean) => {
        if (pickModel) for (const id of ['机台端口', '站号']) await user.clear(field(id));
        await fill(user, {
          ...(pickModel && { 机台端口: '5020', 站号: '2' }),
          机台SN码: 'SN-1',
          网关序列号: 'GW0000000001',
          机台IP: '192.168.1.10',
          网关IP1: '192.168.1.2',
          网关IP2: '10.0.0.2',
        });
        if (pickModel) await user.click(await screen.findByText('西门子 S7-1200'));
        await user.click(screen.getByRole('button', { name: '绑定' }));
        const socket = await vi.waitFor(() => FakeSocket.current());
        FakeSocket.last = null;
        return socket;
      };

      const refused = await submit(true);
      expect(refused.url).toMatch(/\/ws\/maintenance\/GW0000000001_maintain$/);
      refused.openWith({
        MsgType: 'bindResult',
        Code: 409,
        Content: '机台已绑定网关GW9，请先解绑',
      });
      expect(JSON.parse(refused.sent[0]!)).toEqual({
        MsgType: 'bind',
        snCode: 'SN-1',
        plcIp: '192.168.1.10',
        plcPort: 5020,
        unitId: 2,
        iotId: 'GW0000000001',
        iotIp: '192.168.1.2,10.0.0.2',
        plcModel: 'S7-1200',
      });
      await vi.waitFor(() => expect(toasts()).toContain('机台已绑定网关GW9，请先解绑'));
      // Refused: the form keeps what was typed.
      expect(field('机台SN码').value).toBe('SN-1');

      // The model stays picked; the text fields are typed again.
      for (const id of ['机台SN码', '网关序列号', '机台IP', '网关IP1', '网关IP2'])
        await user.clear(field(id));
      const accepted = await submit(false);
      accepted.openWith({ MsgType: 'bindResult', Code: 200, Content: '绑定成功' });
      await vi.waitFor(() => expect(toasts()).toContain('绑定成功'));
      await vi.waitFor(() => expect(field('机台SN码').value).toBe(''));
    },
  );
});

describe('unbind machine page', () => {
  it('asks for both fields, then a 12-character serial', async () => {
    const { user } = renderPage(paths.unboundDevice, { api: api() });
    await ready('机台SN码');
    await user.click(screen.getByRole('button', { name: '解绑' }));
    await vi.waitFor(() => expect(errorOf('机台SN码')).toBe('请将数据填写完整'));
    expect(errorOf('网关序列号')).toBe('请将数据填写完整');
    await user.type(field('机台SN码'), 'SN-1');
    await user.type(field('网关序列号'), 'GW01');
    await user.click(screen.getByRole('button', { name: '解绑' }));
    await vi.waitFor(() => expect(errorOf('网关序列号')).toBe('请输入正确的网关序列号'));
    expect(FakeSocket.last).toBeNull();
  });

  it('sends the unbind payload; 200 clears the form', async () => {
    const { user } = renderPage(paths.unboundDevice, { api: api() });
    await ready('机台SN码');
    await user.type(screen.getByPlaceholderText('请输入机台SN码'), 'SN-1');
    await user.type(field('网关序列号'), 'GW0000000001');
    await user.click(screen.getByRole('button', { name: '解绑' }));
    const socket = await vi.waitFor(() => FakeSocket.current());
    socket.openWith({ MsgType: 'unbindResult', Code: 200, Content: '解绑成功' });
    expect(JSON.parse(socket.sent[0]!)).toEqual({
      MsgType: 'unbind',
      snCode: 'SN-1',
      iotId: 'GW0000000001',
    });
    await vi.waitFor(() => expect(toasts()).toContain('解绑成功'));
    await vi.waitFor(() => expect(field('机台SN码').value).toBe(''));
  });
});
