import {
  subscriptionMessages,
  type AddFollowBody,
  type FollowSettings,
} from '@linewatch/contracts/subscriptions';
import { subscriptionsApi } from '@linewatch/contracts/subscriptions-api';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { links } from '../../../shared/paths.ts';
import { fakeApi } from '../../../testing/fake-api.ts';
import { renderPage } from '../../../testing/render-page.tsx';

const settings: FollowSettings = {
  snCode: 'SN-1',
  isFollow: false,
  userFollowSnId: null,
  realTimeReminder: true,
  threeParameters: false,
  alarm: true,
  daily: false,
  week: false,
  timeLength: 3_600_000 + 25 * 60_000,
};

const server = () => {
  const saved: AddFollowBody[] = [];
  const api = fakeApi()
    .on(subscriptionsApi.followSettings, () => settings)
    .on(subscriptionsApi.addFollow, (body) => {
      saved.push(body as AddFollowBody);
      return { count: 2 };
    });
  return { api, saved };
};

const checkbox = (testId: string) =>
  screen.getByTestId(testId).querySelector('input') as HTMLInputElement;

describe('follow setting page', () => {
  it('starts from the first machine’s settings and shows the stop duration', async () => {
    renderPage(links.followSetting(['SN-1', 'SN-2']), { api: server().api });
    await screen.findByText('1小时25分钟', {}, { timeout: 5000 });
    expect(screen.getByTestId('follow-machines').textContent).toContain('已选 2 台：SN-1、SN-2');
  });

  it('statistics selects both report types when none is chosen and clears them when unchecked', async () => {
    const { api, saved } = server();
    const { user } = renderPage(links.followSetting(['SN-1', 'SN-2']), { api });
    await screen.findByText('1小时25分钟', {}, { timeout: 5000 });
    await user.click(screen.getByTestId('follow-statistics'));
    expect(checkbox('follow-daily').checked).toBe(true);
    expect(checkbox('follow-week').checked).toBe(true);
    await user.click(screen.getByTestId('follow-statistics'));
    expect(checkbox('follow-daily').checked).toBe(false);
    await user.click(screen.getByTestId('follow-week'));
    await user.click(screen.getByTestId('follow-save'));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({
      snCode: 'SN-1,SN-2',
      alarm: true,
      realTimeReminder: true,
      week: true,
      daily: false,
      statistics: true,
      timeLength: 5_100_000,
    });
  });

  it('says 请先选择机台 with no machine', async () => {
    renderPage(links.followSetting([]), { api: server().api });
    await screen.findByText(subscriptionMessages.selectMachine, {}, { timeout: 5000 });
  });
});
