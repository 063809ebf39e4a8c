import { describe, expect, it } from 'vitest';
import { presentApplication, presentAuditPage, presentUser } from './presenter.ts';

const at = new Date('2026-03-01T08:00:00.000Z');

describe('users presenter', () => {
  it('a user: dates as ISO strings, no mobile stays null', () => {
    expect(
      presentUser({
        id: 7,
        psnCode: 'E007',
        name: '张三',
        nickName: '',
        mobile: null,
        isAdmin: false,
        disabled: true,
        lineIds: [],
        createdAt: at,
      }),
    ).toEqual({
      id: 7,
      psnCode: 'E007',
      name: '张三',
      nickName: '',
      mobile: null,
      isAdmin: false,
      disabled: true,
      lineIds: [],
      createdAt: '2026-03-01T08:00:00.000Z',
    });
  });

  it('an application not yet decided has decidedAt null; a decided one its time', () => {
    const pending = {
      id: 3,
      name: '李四',
      psnCode: 'E010',
      mobile: '13800000000',
      status: 'pending' as const,
      reason: '',
      createdAt: at,
      decidedAt: null,
    };
    expect(presentApplication(pending)).toMatchObject({
      createdAt: '2026-03-01T08:00:00.000Z',
      decidedAt: null,
    });
    expect(
      presentApplication({ ...pending, status: 'rejected', reason: '信息不符', decidedAt: at }),
    ).toMatchObject({
      status: 'rejected',
      reason: '信息不符',
      decidedAt: '2026-03-01T08:00:00.000Z',
    });
  });

  it('an audit page keeps its total and each entry as recorded; an empty page stays empty', () => {
    expect(presentAuditPage({ total: 0, data: [] })).toEqual({ total: 0, data: [] });
    const page = presentAuditPage({
      total: 41,
      data: [
        {
          id: 41,
          actorName: 'admin',
          action: 'user.disable',
          target: 'user:E007',
          before: { disabled: false },
          after: null,
          createdAt: at,
        },
      ],
    });
    expect(page).toEqual({
      total: 41,
      data: [
        {
          id: 41,
          actorName: 'admin',
          action: 'user.disable',
          target: 'user:E007',
          before: { disabled: false },
          after: null,
          createdAt: '2026-03-01T08:00:00.000Z',
        },
      ],
    });
  });
});
