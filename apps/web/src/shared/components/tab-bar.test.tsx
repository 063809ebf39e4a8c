import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { TabBar } from './tab-bar.tsx';

const tabs = [
  { key: '/a', title: '实时数据' },
  { key: '/b', title: '历史数据' },
  { key: '/c', title: '设备日志' },
];

describe('tab bar', () => {
  it('marks the active tab, and a tap or an arrow key asks for another', () => {
    const onChange = vi.fn();
    const { rerender } = render(<TabBar tabs={tabs} activeKey="/a" onChange={onChange} />);
    expect(screen.getByRole('tab', { selected: true }).textContent).toBe('实时数据');
    fireEvent.click(screen.getByText('实时数据'));
    fireEvent.click(screen.getByText('历史数据'));
    expect(onChange.mock.calls).toEqual([['/b']]);

    rerender(<TabBar tabs={tabs} activeKey="/b" onChange={onChange} />);
    expect(screen.getByRole('tab', { selected: true }).textContent).toBe('历史数据');
    fireEvent.keyDown(screen.getByRole('tablist'), { key: 'ArrowRight' });
    expect(onChange).toHaveBeenLastCalledWith('/c');
    fireEvent.keyDown(screen.getByRole('tablist'), { key: 'ArrowLeft' });
    expect(onChange).toHaveBeenLastCalledWith('/a');
  });
});
