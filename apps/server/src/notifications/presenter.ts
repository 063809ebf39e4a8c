import type { InboxReply } from '@linewatch/contracts/alerts';
import type { InboxPage } from './repository.ts';

/** The inbox (/messages): a message of no alarm has `alarm` null; one unread has no read time. */
export const presentInbox = (page: InboxPage): InboxReply => ({
  data: page.messages.map((m) => ({
    id: m.id,
    kind: m.kind,
    title: m.title,
    body: m.body,
    link: m.link,
    createdAt: m.createdAt.toISOString(),
    read: m.readAt !== null,
    alarm:
      m.alarmSnCode === null
        ? null
        : { snCode: m.alarmSnCode, warningContent: m.alarmContent ?? '' },
  })),
  totalNum: page.total,
  unread: page.unread,
});
