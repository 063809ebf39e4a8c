import type { FailureCase } from '@linewatch/contracts/cases';
import { casesApi } from '@linewatch/contracts/cases-api';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { links } from '../../../shared/paths.ts';
import { fakeApi } from '../../../testing/fake-api.ts';
import { renderPage } from '../../../testing/render-page.tsx';

const found: FailureCase = {
  id: 3,
  warningCode: 'E101',
  description: '送料超时',
  snCode: 'LW-S1-002',
  deviceName: '贴片机',
  shootings: [
    {
      label: '送料器检查',
      picUrl: ['/cases/a.svg', '/cases/b.svg'],
      videoUrl: '/cases/guide.mp4',
      steps: [
        { label: '检查送料器是否卡料', picUrl: '/cases/a.svg' },
        { label: '清理送料通道异物', picUrl: null },
      ],
    },
  ],
};

describe('fault alarm page', () => {
  it('shows the case without signing in: machine, alarm, carousel, steps and video', async () => {
    const api = fakeApi().on(casesApi.failureCase, () => found);
    renderPage(links.faultAlarm(3), { api, signedIn: false });
    expect(await screen.findByText('E101 送料超时', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('LW-S1-002')).toBeTruthy();
    screen.getByText('清理送料通道异物');
    // The carousel's height is layout: its swiper has no role or name to find it by.
    expect(screen.getByTestId('fault-carousel').style.height).toBe('200px');
    expect(screen.getByLabelText('指导视频').getAttribute('src')).toBe('/cases/guide.mp4');
    screen.getByText('指导视频');
    expect(api.calls(casesApi.failureCase)).toEqual([{ casesId: '3' }]);
  });

  it('shows no video where a check item has none', async () => {
    const api = fakeApi().on(casesApi.failureCase, () => ({
      ...found,
      shootings: [{ ...found.shootings[0]!, videoUrl: null }],
    }));
    renderPage(links.faultAlarm(3), { api, signedIn: false });
    await screen.findByText('E101 送料超时', {}, { timeout: 5000 });
    expect(screen.queryByLabelText('指导视频')).toBeNull();
    expect(screen.queryByText('指导视频')).toBeNull();
  });
});
