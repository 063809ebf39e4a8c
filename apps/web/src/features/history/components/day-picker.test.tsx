import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DayPicker } from './day-picker.tsx';

describe('day picker', () => {
  it('loads the calendar with the first tap and opens it', async () => {
    const user = userEvent.setup();
    render(<DayPicker value="2026-11-20" onChange={vi.fn()} testId="day" />);
    expect(screen.queryByText('选择日期')).toBeNull();
    await user.click(screen.getByRole('button', { name: '2026-11-20' }));
    expect(await screen.findByText('选择日期', undefined, { timeout: 10_000 })).toBeTruthy();
  });
});
