import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DeferredTabs } from './deferred-tabs.tsx';

const tabs = [
  { key: '/a', title: '实时数据' },
  { key: '/b', title: '历史数据' },
  { key: '/c', title: '设备日志' },
];

describe('deferred tabs', () => {
  it('answer taps from the first render, then become antd-mobile Tabs without remounting what is beside them', async () => {
    const onChange = vi.fn();
    const { rerender } = render(
      <>
        <DeferredTabs tabs={tabs} activeKey="/a" onChange={onChange} />
        <input data-testid="page" />
      </>,
    );
    const page = screen.getByTestId('page');
    expect(screen.getByRole('tab', { selected: true }).textContent).toBe('实时数据');
    fireEvent.click(screen.getByText('实时数据'));
    fireEvent.click(screen.getByText('历史数据'));
    expect(onChange.mock.calls).toEqual([['/b']]);

    rerender(
      <>
        <DeferredTabs tabs={tabs} activeKey="/b" onChange={onChange} />
        <input data-testid="page" />
      </>,
    );
    expect(screen.getByRole('tab', { selected: true }).textContent).toBe('历史数据');
    // antd-mobile's Tabs (once loaded) also move by the arrow keys.
    await vi.waitFor(
      () => {
        fireEvent.keyDown(screen.getByRole('tablist'), { key: 'ArrowRight' });
        expect(onChange).toHaveBeenLastCalledWith('/c');
      },
      { timeout: 20_000 },
    );
    expect(screen.getByTestId('page')).toBe(page);
  }, 30_000);
});
