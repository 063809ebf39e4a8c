/** An alarm as the FACA question form takes it: the machine and the alarm content. */
export interface AlarmSubject {
  snCode: string;
  warningContent: string;
}

/**
 * A message's facts, short, apart from its text: what a WeChat template shows, one field each of
 * at most 20 characters (channels/wechat-template.ts).
 */
export interface NoticeFields {
  /** The machine's SN, or the machines' SNs comma-separated. */
  sn?: string;
  /** The machine as people call it (nickname, else device name), or how many machines. */
  machine?: string;
  /** What happened, in a few words: "E101 送料超时", "故障停机超过5分钟". */
  content?: string;
}

/** One message for one person. */
export interface Notice {
  userId: number;
  /** What caused it, for filtering and channels: 'alarm', 'daily', 'faca-task', … */
  kind: string;
  title: string;
  body: string;
  /** An app path that opens what the message is about (shared/paths.ts on the web side). */
  link?: string | null;
  /**
   * The event's identity for this user, e.g. `alarm:LW-S1-002:E101:<episode start>`: a notice
   * whose (userId, dedupeKey) exists already is not written again, so a retried or replayed
   * cause tells nobody twice.
   */
  dedupeKey: string;
  /** The alarm a message is about (kind 'alarm'): the inbox offers to start a FACA question. */
  alarm?: AlarmSubject | null;
  fields?: NoticeFields;
}

/** The external channels (channels/); the in-app inbox is the notifications row itself. */
export type ChannelName = 'wechat' | 'dingtalk' | 'webhook';
