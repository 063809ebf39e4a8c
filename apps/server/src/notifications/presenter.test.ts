import { describe, expect, it } from 'vitest';
import { presentInbox } from './presenter.ts';

const message = {
  id: 5,
  kind: 'alarm',
  title: '报警',
  body: 'SN-1 急停',
  link: null,
  createdAt: new Date('2026-03-01T08:00:00.000Z'),
  readAt: null,
  alarmSnCode: null,
  alarmContent: null,
};

describe('notifications presenter', () => {
  it('an empty inbox: no messages, its counts', () => {
    expect(presentInbox({ messages: [], total: 0, unread: 0 })).toEqual({
      data: [],
      totalNum: 0,
      unread: 0,
    });
  });

  it('unread and with no alarm: read false, alarm null', () => {
    expect(presentInbox({ messages: [message], total: 1, unread: 1 }).data[0]).toEqual({
      id: 5,
      kind: 'alarm',
      title: '报警',
      body: 'SN-1 急停',
      link: null,
      createdAt: '2026-03-01T08:00:00.000Z',
      read: false,
      alarm: null,
    });
  });

  it('read, of an alarm: its machine and content ("" when none was kept)', () => {
    const [item] = presentInbox({
      messages: [{ ...message, readAt: new Date(), alarmSnCode: 'SN-1', alarmContent: null }],
      total: 1,
      unread: 0,
    }).data;
    expect(item).toMatchObject({ read: true, alarm: { snCode: 'SN-1', warningContent: '' } });
  });
});
