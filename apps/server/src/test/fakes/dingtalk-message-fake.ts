import { startFakeServer, type FakeServer } from './message-fake-server.ts';

export interface DingtalkWorkNotice {
  agent_id: number;
  userid_list: string;
  msg: { msgtype: string; markdown?: { title: string; text: string } };
}

export interface DingtalkMessageFake extends FakeServer {
  notices: DingtalkWorkNotice[];
  tokensIssued(): number;
}

/**
 * The DingTalk API as the server uses it: GET /gettoken (appkey, appsecret) and POST
 * /topapi/message/corpconversation/asyncsend_v2?access_token=…, with DingTalk's reply shapes
 * (errcode 0 and task_id; 40014 invalid token).
 */
export const startDingtalkMessageFake = async (credentials: {
  appKey: string;
  appSecret: string;
}): Promise<DingtalkMessageFake> => {
  const notices: DingtalkWorkNotice[] = [];
  let token = '';
  let tokensIssued = 0;
  const server = await startFakeServer(
    (r) => {
      if (r.url.pathname === '/gettoken') {
        if (
          r.url.searchParams.get('appkey') !== credentials.appKey ||
          r.url.searchParams.get('appsecret') !== credentials.appSecret
        )
          return { errcode: 40089, errmsg: '不合法的corpid或corpsecret' };
        tokensIssued++;
        token = `dd-token-${tokensIssued}`;
        return { errcode: 0, errmsg: 'ok', access_token: token, expires_in: 7200 };
      }
      if (r.url.pathname === '/topapi/message/corpconversation/asyncsend_v2') {
        if (!token || r.url.searchParams.get('access_token') !== token)
          return { errcode: 40014, errmsg: '不合法的access_token' };
        notices.push(r.json as DingtalkWorkNotice);
        return {
          errcode: 0,
          errmsg: 'ok',
          task_id: notices.length,
          request_id: `req-${notices.length}`,
        };
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
