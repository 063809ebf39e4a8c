import { adminApi } from '@linewatch/contracts/admin-api';
import { gatewaysApi } from '@linewatch/contracts/gateways-api';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { paths } from '../../../shared/paths.ts';
import { fakeApi } from '../../../testing/fake-api.ts';
import { renderPage } from '../../../testing/render-page.tsx';

describe('admin gateways page', () => {
  it('lists each gateway’s state and machines, and shows a new credential once', async () => {
    // The page sits behind the admin gate, which asks the server first.
    const api = fakeApi()
      .on(adminApi.access, () => ({ isAdmin: true }))
      .on(gatewaysApi.adminList, () => [
        {
          serial: 'GW0000000001',
          name: '',
          online: true,
          lastSeenAt: Date.now(),
          agentVersion: '0.1.0',
          machines: [
            { snCode: 'SN-1', plcIp: '192.168.1.10', plcPort: 502, unitId: 1, plcModel: 'FX5U' },
          ],
        },
      ])
      .on(gatewaysApi.adminRegister, (body) => ({
        serial: String(body?.serial),
        secret: 'the-secret-shown-once',
      }));
    const { user } = renderPage(paths.adminGateways, { api });
    // One gateway is listed, so its words are the page's.
    await screen.findByText('GW0000000001', { exact: false }, { timeout: 15_000 });
    expect(screen.getByText('在线')).toBeTruthy();
    expect(screen.getByText('机台：SN-1(192.168.1.10:502 站号1)')).toBeTruthy();
    expect(screen.getByText('版本：0.1.0')).toBeTruthy();

    await user.type(screen.getByLabelText('网关序列号'), 'GW0000000002');
    await user.click(screen.getByRole('button', { name: '登记网关' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('the-secret-shown-once')).toBeTruthy();
    expect(api.calls(gatewaysApi.adminRegister)).toEqual([{ serial: 'GW0000000002' }]);
    await vi.waitFor(() => expect(api.calls(gatewaysApi.adminList).length).toBeGreaterThan(1));
  }, 30_000);
});
