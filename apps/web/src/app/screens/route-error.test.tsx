import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toast } from 'antd-mobile';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useConnectivity } from '../../shared/connectivity.ts';
import { ChunkOfflineError } from '../lazy-page.ts';
import { RouteError } from './route-error.tsx';

const toastShow = vi.spyOn(Toast, 'show').mockImplementation(() => ({ close: () => {} }));

const Broken = () => {
  throw new ChunkOfflineError(new TypeError('Failed to fetch dynamically imported module'));
};
const renderError = () =>
  render(
    <RouterProvider
      router={createMemoryRouter([
        { path: '/', element: <Broken />, errorElement: <RouteError /> },
      ])}
    />,
  );

afterEach(() => {
  useConnectivity.setState({ browserOffline: false, unreachable: false });
  toastShow.mockClear();
});

describe('a page whose code could not be fetched offline', () => {
  it('says so in the app, and its retry does not reload while still offline', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    useConnectivity.setState({ browserOffline: true });
    renderError();
    // The offline notice, not the generic 加载失败 one.
    expect(screen.getByText('网络异常，请检查网络连接')).toBeTruthy();
    expect(screen.getByText('此页面需联网后打开')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '重试' }));
    // A reload here would be chromium's offline page: the notice stays, the toast repeats why.
    await vi.waitFor(() =>
      expect(toastShow).toHaveBeenCalledWith(
        expect.objectContaining({ content: '网络异常，请检查网络连接' }),
      ),
    );
    expect(screen.getByText('此页面需联网后打开')).toBeTruthy();
  });
});
