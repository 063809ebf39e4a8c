import { subscriptionMessages, type FollowRow } from '@linewatch/contracts/subscriptions';
import { subscriptionsApi } from '@linewatch/contracts/subscriptions-api';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { paths } from '../../../shared/paths.ts';
import { fakeApi } from '../../../testing/fake-api.ts';
import { renderPage } from '../../../testing/render-page.tsx';

const row = (i: number): FollowRow => ({
  snCode: `SN-${String(i).padStart(2, '0')}`,
  nickSnCode: '',
  deviceName: '贴片机',
  produceGroup: '贴片',
  yield: 98.5,
  yieldTarget: 95,
  useRate: null,
  useRateTarget: 85,
  ppm: 50,
  ppmTarget: 60,
  isFollow: i % 2 === 0,
  userFollowSnId: i % 2 === 0 ? i : null,
});
const rows = Array.from({ length: 25 }, (_, i) => row(i));

const server = () => {
  const cancelled: string[] = [];
  const api = fakeApi()
    .on(subscriptionsApi.processSections, () => [{ label: '贴片', value: '贴片' }])
    .on(subscriptionsApi.list, (q) => {
      const page = Number(q.pageNumber);
      return { data: rows.slice((page - 1) * 20, page * 20), totalNum: rows.length };
    })
    .on(subscriptionsApi.delFollows, (body) => {
      cancelled.push(String(body.snCodes));
      return { count: 1 };
    });
  return { api, cancelled };
};

describe('subscription page', () => {
  it('lists 20 a page with figures against targets and the subscribed tag', async () => {
    const { api } = server();
    renderPage(paths.subscription, { api });
    await waitFor(() => expect(screen.getAllByTestId('subscription-row')).toHaveLength(20), {
      timeout: 5000,
    });
    const first = screen.getAllByTestId('subscription-row')[0]!;
    expect(first.textContent).toContain('98.5% / 95%');
    expect(first.textContent).toContain('— / 85%');
    expect(first.textContent).toContain('50 / 60');
    expect(first.textContent).toContain('已订阅');
    expect(screen.getAllByTestId('subscription-row')[1]!.textContent).not.toContain('已订阅');
  });

  it('batch actions need a selection; select all then batch cancel cancels them', async () => {
    const { api, cancelled } = server();
    const { user } = renderPage(paths.subscription, { api });
    await waitFor(() => expect(screen.getAllByTestId('subscription-row')).toHaveLength(20), {
      timeout: 5000,
    });
    await user.click(screen.getByTestId('subscription-select-mode'));
    await user.click(screen.getByTestId('subscription-batch-cancel'));
    await screen.findByText(subscriptionMessages.selectMachine, {}, { timeout: 5000 });
    await user.click(screen.getByTestId('subscription-select-all'));
    await user.click(screen.getByTestId('subscription-batch-cancel'));
    await waitFor(() => expect(cancelled).toHaveLength(1));
    expect(cancelled[0]!.split(',')).toHaveLength(20);
  });
});
