import { startFakeServer, type FakeServer } from './message-fake-server.ts';

export interface DingtalkWorkNotice {
  agent_id: number;
  userid_list: string;
  msg: { msgtype: string; markdown?: { title: string; text: string } };
}

const TOKEN_LIFETIME_MS = 7_200_000;

export interface DingtalkMessageFake extends FakeServer {
  /** Notices a user would see: DingTalk shows one app's same content to one user once a day. */
  notices: DingtalkWorkNotice[];
  tokensIssued(): number;
}

/**
 * The DingTalk API as the server uses it: GET /gettoken (appkey, appsecret) and POST
 * /topapi/message/corpconversation/asyncsend_v2?access_token=…, with DingTalk's reply shapes
 * (errcode 0 and task_id; 40014 invalid token, 42001 expired), its rule that gettoken returns
 * the same token while it is valid, extending it ("有效期内重复获取会返回相同结果并自动续期"),
 * and its rule that one app's message with the same content reaches one user once a day (a
 * repeat is answered ok, and dropped).
 */
export const startDingtalkMessageFake = async (credentials: {
  appKey: string;
  appSecret: string;
}): Promise<DingtalkMessageFake> => {
  const notices: DingtalkWorkNotice[] = [];
  const seen = new Set<string>();
  let token: { value: string; expiresAt: number } | null = null;
  let tokensIssued = 0;
  let tasks = 0;
  const server = await startFakeServer(
    (r) => {
      if (r.url.pathname === '/gettoken') {
        if (
          r.url.searchParams.get('appkey') !== credentials.appKey ||
          r.url.searchParams.get('appsecret') !== credentials.appSecret
        )
          return { errcode: 40089, errmsg: '不合法的corpid或corpsecret' };
        if (!token || token.expiresAt <= Date.now())
          token = { value: `dd-token-${++tokensIssued}`, expiresAt: 0 };
        token.expiresAt = Date.now() + TOKEN_LIFETIME_MS;
        return { errcode: 0, errmsg: 'ok', access_token: token.value, expires_in: 7200 };
      }
      if (r.url.pathname === '/topapi/message/corpconversation/asyncsend_v2') {
        if (!token || r.url.searchParams.get('access_token') !== token.value)
          return { errcode: 40014, errmsg: '不合法的access_token' };
        if (token.expiresAt <= Date.now()) return { errcode: 42001, errmsg: 'access_token超时' };
        const notice = r.json as DingtalkWorkNotice;
        // DingTalk's day is China's (UTC+8).
        const day = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
        for (const user of notice.userid_list.split(',')) {
          const key = JSON.stringify([notice.agent_id, user, day, notice.msg]);
          if (seen.has(key)) continue;
          seen.add(key);
          notices.push({ ...notice, userid_list: user });
        }
        tasks++;
        return { errcode: 0, errmsg: 'ok', task_id: tasks, request_id: `req-${tasks}` };
      }
      return { errcode: 404, errmsg: 'not found' };
    },
    (r) => r.url.pathname === '/topapi/message/corpconversation/asyncsend_v2',
  );
  return Object.assign(server, {
    notices,
    tokensIssued: () => tokensIssued,
  });
};
