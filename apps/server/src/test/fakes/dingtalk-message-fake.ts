import { startFakeServer, type FakeServer } from './message-fake-server.ts';

export interface DingtalkWorkNotice {
  agent_id: number;
  userid_list: string;
  msg: { msgtype: string; markdown?: { title: string; text: string } };
}

const TOKEN_LIFETIME_MS = 7_200_000;

/** "单应用给单人推送重复消息超限": the same content to one user again the same day. */
const REPEATED_CONTENT = '143106';

interface TaskResult {
  invalid_user_id_list: string[];
  forbidden_user_id_list: string[];
  failed_user_id_list: string[];
  read_user_id_list: string[];
  unread_user_id_list: string[];
  forbidden_list: { code: string; count: number; userid: string }[];
}

export interface DingtalkMessageFake extends FakeServer {
  /** Notices a user would see: DingTalk shows one app's same content to one user once a day. */
  notices: DingtalkWorkNotice[];
  tokensIssued(): number;
  /** This user has left: DingTalk takes a notice for them (errcode 0) and lists them invalid. */
  leave(userid: string): void;
  /**
   * getsendresult shows nothing of the tasks sent from now on until released, as while
   * DingTalk is still working on them.
   */
  holdResults(): { release(): void };
  /** getsendresult calls answered so far. */
  resultQueries(): number;
}

/**
 * The DingTalk API as the server uses it: GET /gettoken (appkey, appsecret), POST
 * /topapi/message/corpconversation/asyncsend_v2 and …/getsendresult?access_token=…, with
 * DingTalk's reply shapes (errcode 0 and task_id; 40014 invalid token, 42001 expired), its rule
 * that gettoken returns the same token while it is valid, extending it ("有效期内重复获取会返回
 * 相同结果并自动续期"), and asyncsend_v2's errcode 0 saying only that the task was taken: who it
 * reached is getsendresult's send_result (https://developer.alibaba.com/docs/api.htm?apiId=37024:
 * invalid_user_id_list 无效的用户id, forbidden_user_id_list "因发送消息过于频繁或超量而被流控过滤
 * 后实际未发送的userid … 1、给同一用户发相同内容消息一天仅允许一次", failed_user_id_list,
 * read_user_id_list, unread_user_id_list, forbidden_list with the code).
 */
export const startDingtalkMessageFake = async (credentials: {
  appKey: string;
  appSecret: string;
}): Promise<DingtalkMessageFake> => {
  const notices: DingtalkWorkNotice[] = [];
  const seen = new Set<string>();
  const gone = new Set<string>();
  const results = new Map<number, TaskResult>();
  let held: Set<number> | null = null;
  let token: { value: string; expiresAt: number } | null = null;
  let tokensIssued = 0;
  let tasks = 0;
  let resultQueries = 0;

  const tokenProblem = (r: { url: URL }) => {
    if (!token || r.url.searchParams.get('access_token') !== token.value)
      return { errcode: 40014, errmsg: '不合法的access_token' };
    if (token.expiresAt <= Date.now()) return { errcode: 42001, errmsg: 'access_token超时' };
    return null;
  };

  const send = (notice: DingtalkWorkNotice) => {
    const result: TaskResult = {
      invalid_user_id_list: [],
      forbidden_user_id_list: [],
      failed_user_id_list: [],
      read_user_id_list: [],
      unread_user_id_list: [],
      forbidden_list: [],
    };
    // DingTalk's day is China's (UTC+8).
    const day = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
    for (const user of notice.userid_list.split(',')) {
      if (gone.has(user)) {
        result.invalid_user_id_list.push(user);
        continue;
      }
      const key = JSON.stringify([notice.agent_id, user, day, notice.msg]);
      if (seen.has(key)) {
        result.forbidden_user_id_list.push(user);
        result.forbidden_list.push({ code: REPEATED_CONTENT, count: 1, userid: user });
        continue;
      }
      seen.add(key);
      notices.push({ ...notice, userid_list: user });
      result.unread_user_id_list.push(user);
    }
    tasks++;
    results.set(tasks, result);
    held?.add(tasks);
    return { errcode: 0, errmsg: 'ok', task_id: tasks, request_id: `req-${tasks}` };
  };

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
        return tokenProblem(r) ?? send(r.json as DingtalkWorkNotice);
      }
      if (r.url.pathname === '/topapi/message/corpconversation/getsendresult') {
        const refused = tokenProblem(r);
        if (refused) return refused;
        resultQueries++;
        const taskId = Number((r.json as { task_id?: unknown } | null)?.task_id);
        const result = results.get(taskId);
        if (!result) return { errcode: -1, errmsg: 'no such task (this fake)' };
        const empty: TaskResult = {
          invalid_user_id_list: [],
          forbidden_user_id_list: [],
          failed_user_id_list: [],
          read_user_id_list: [],
          unread_user_id_list: [],
          forbidden_list: [],
        };
        return {
          errcode: 0,
          errmsg: 'ok',
          send_result: held?.has(taskId) ? empty : result,
          request_id: `req-r${resultQueries}`,
        };
      }
      return { errcode: 404, errmsg: 'not found' };
    },
    (r) => r.url.pathname === '/topapi/message/corpconversation/asyncsend_v2',
  );
  return Object.assign(server, {
    notices,
    tokensIssued: () => tokensIssued,
    leave: (userid: string) => void gone.add(userid),
    holdResults: () => {
      held = new Set();
      return {
        release: () => {
          held = null;
        },
      };
    },
    resultQueries: () => resultQueries,
  });
};
