import { devicesApi } from '@linewatch/contracts/devices-api';
import { identityApi } from '@linewatch/contracts/identity-api';
import { REQUEST_TIMEOUT_MS } from '@linewatch/contracts/limits';
import { Toast } from 'antd-mobile';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, call } from './api-client.ts';
import { useConnectivity } from './connectivity.ts';
import { webMessages } from './messages.ts';
import { setNavigator } from './navigation.ts';
import { useSession } from './session-store.ts';
import { links, paths } from './paths.ts';

const reply = (body: unknown, status = 200) =>
  Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  );

const fetchMock = vi.fn<typeof fetch>();
const navigate = vi.fn();
const toastShow = vi.spyOn(Toast, 'show').mockImplementation(() => ({ close: () => {} }));

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  setNavigator(navigate);
  useSession.getState().signIn('key-1');
  window.history.replaceState(null, '', `${paths.deviceList}?nameTag=SN`);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  navigate.mockReset();
  toastShow.mockClear();
  useSession.getState().clear();
  useConnectivity.setState({ browserOffline: false, unreachable: false });
});

const toastTexts = () =>
  toastShow.mock.calls.map(([props]) => (typeof props === 'string' ? props : props.content));

/**
 * A reply whose headers have come and whose body is still on its way: reading it fails the way a
 * browser's does once the request's signal aborts.
 */
const bodyStillComing = (init: RequestInit | undefined) => {
  const body = new ReadableStream<Uint8Array>({
    start(stream) {
      init?.signal?.addEventListener('abort', () =>
        stream.error(new DOMException('aborted', 'AbortError')),
      );
    },
  });
  return Promise.resolve(new Response(body, { status: 403 }));
};

describe('api client', () => {
  it('returns data of a 0000 reply and sends keyId as a header', async () => {
    fetchMock.mockReturnValueOnce(
      reply({ success: true, code: '0000', msg: '', data: { name: 'A', nickName: 'B' } }),
    );
    await expect(call(identityApi.userInfo, undefined)).resolves.toEqual({
      name: 'A',
      nickName: 'B',
    });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe(identityApi.userInfo.path);
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('keyId')).toBe('key-1');
    expect(toastShow).not.toHaveBeenCalled();
  });

  it('puts defined query values in the address', async () => {
    fetchMock.mockReturnValueOnce(reply({ success: true, code: '0000', msg: '', data: null }));
    await call(devicesApi.machineList, { pageIndex: 2, nameTag: 'a b', produceLine: undefined });
    expect(fetchMock.mock.calls[0]?.[0]).toBe(
      `${devicesApi.machineList.path}?pageIndex=2&nameTag=a+b`,
    );
  });

  it('on 0405 clears the session and goes to login with the current path and search', async () => {
    fetchMock.mockReturnValueOnce(
      reply({ success: false, code: '0405', msg: '请重新登录', data: null }, 401),
    );
    await expect(call(devicesApi.processMenu, {})).rejects.toMatchObject({ code: '0405' });
    expect(useSession.getState().keyId).toBeNull();
    expect(navigate).toHaveBeenCalledWith(links.loginAgain(`${paths.deviceList}?nameTag=SN`), {
      replace: true,
    });
    await vi.waitFor(() => expect(toastTexts()).toEqual(['请重新登录']));
  });

  it('throws an ApiError and toasts the server msg for other codes', async () => {
    fetchMock.mockReturnValueOnce(
      reply({ success: false, code: '0410', msg: '用户名或密码错误', data: null }, 409),
    );
    const body = { psnCode: 'a', passWord: 'b' };
    const error = await call(identityApi.wechatBindUser, body).catch((e: unknown) => e);
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBe(JSON.stringify(body));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: '0410', message: '用户名或密码错误' });
    await vi.waitFor(() => expect(toastTexts()).toEqual(['用户名或密码错误']));
    expect(useSession.getState().keyId).toBe('key-1');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('toasts the network message when the request fails', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(call(devicesApi.processMenu, {})).rejects.toMatchObject({ code: 'network' });
    await vi.waitFor(() => expect(toastTexts()).toEqual([webMessages.networkError]));
  });

  it('aborts after the request timeout and toasts it', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementationOnce(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () =>
            reject(new DOMException('aborted', 'AbortError')),
          );
        }),
    );
    const outcome = call(devicesApi.processMenu, {}).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(toastShow).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await expect(outcome).resolves.toMatchObject({ code: 'timeout' });
    await vi.waitFor(() => expect(toastTexts()).toEqual([webMessages.timeout]));
  });

  it('stays quiet when the caller cancels', async () => {
    const controller = new AbortController();
    fetchMock.mockImplementationOnce(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () =>
            reject(new DOMException('aborted', 'AbortError')),
          );
        }),
    );
    const outcome = call(devicesApi.processMenu, {}, { signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    controller.abort();
    await expect(outcome).resolves.toMatchObject({ name: 'AbortError' });
    expect(toastShow).not.toHaveBeenCalled();
  });

  it('stays quiet when the caller cancels while the body is still coming', async () => {
    // React Query cancels a query nobody watches any more: the list's summary, once a search was
    // refused. Its cancelled body must not toast 服务器错误 over the refusal's 无权查看.
    const controller = new AbortController();
    fetchMock.mockImplementationOnce((_url, init) => bodyStillComing(init));
    const outcome = call(devicesApi.statusSummary, {}, { signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    controller.abort();
    await expect(outcome).resolves.toMatchObject({ name: 'AbortError' });
    expect(toastShow).not.toHaveBeenCalled();
  });

  it('toasts the timeout when the body does not come in time', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementationOnce((_url, init) => bodyStillComing(init));
    const outcome = call(devicesApi.processMenu, {}).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    await expect(outcome).resolves.toMatchObject({ code: 'timeout' });
    await vi.waitFor(() => expect(toastTexts()).toEqual([webMessages.timeout]));
  });

  it('fails at once with the network message while the browser is offline, sending nothing', async () => {
    // Offline, a user waited out the whole request timeout before (加载中 for 30 s and more).
    window.dispatchEvent(new Event('offline'));
    await expect(call(devicesApi.processMenu, {})).rejects.toMatchObject({ code: 'network' });
    expect(fetchMock).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(toastTexts()).toEqual([webMessages.networkError]));
    window.dispatchEvent(new Event('online'));
    fetchMock.mockReturnValueOnce(reply({ code: '0000', data: [] }));
    await expect(call(devicesApi.processMenu, {})).resolves.toEqual([]);
  });

  it('marks the server unreachable on a failed request, and reached again on any reply', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(call(devicesApi.processMenu, {})).rejects.toMatchObject({ code: 'network' });
    expect(useConnectivity.getState().unreachable).toBe(true);
    fetchMock.mockReturnValueOnce(reply({ code: '0001', msg: '用户名或密码错误' }));
    await expect(call(devicesApi.processMenu, {})).rejects.toMatchObject({ code: '0001' });
    expect(useConnectivity.getState().unreachable).toBe(false);
  });
});
