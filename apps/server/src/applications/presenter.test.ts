import { describe, expect, it } from 'vitest';
import { maskMobile, presentProgress, presentSms } from './presenter.ts';

const at = new Date('2026-03-01T08:00:00.000Z');

describe('applications presenter', () => {
  it('a pending application: the phone masked, decidedAt null', () => {
    expect(
      presentProgress({
        id: 1,
        name: '李四',
        psnCode: 'E010',
        mobile: '13800001234',
        status: 'pending',
        reason: '',
        createdAt: at,
        decidedAt: null,
      }),
    ).toEqual({
      name: '李四',
      psnCode: 'E010',
      mobile: '138****1234',
      status: 'pending',
      reason: '',
      createdAt: '2026-03-01T08:00:00.000Z',
      decidedAt: null,
    });
  });

  it('a phone not of 11 digits is shown as it is', () => {
    expect(maskMobile('12345')).toBe('12345');
  });

  it('an SMS sent: its time as an ISO string', () => {
    expect(presentSms({ mobile: '13800001234', text: '验证码 123456', sentAt: at })).toEqual({
      mobile: '13800001234',
      text: '验证码 123456',
      sentAt: '2026-03-01T08:00:00.000Z',
    });
  });
});
