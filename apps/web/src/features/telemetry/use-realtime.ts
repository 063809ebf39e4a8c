import { sockets } from '@linewatch/contracts/telemetry-api';
import { messages } from '@linewatch/contracts/envelope';
import {
  SOCKET_CLOSE,
  SOCKET_KEY_PROTOCOL_PREFIX,
  SOCKET_PROTOCOL,
  type RealtimeClientMessage,
  type RealtimePayload,
} from '@linewatch/contracts/socket';
import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { queryKeys } from '../../shared/query-keys.ts';
import { expireSession } from '../../shared/session-expired.ts';
import { useSession } from '../../shared/session-store.ts';
import { openSocket, socketUrl, type SocketFactory } from '../../shared/socket-client.ts';
import { toastFailure } from '../../shared/toast.ts';

export interface RealtimeState {
  /**
   * The machine's last payload: the socket's latest, or offline the last one this phone got
   * (kept in the query cache, whose age the offline banner shows).
   */
  payload: RealtimePayload | null;
  /** The socket dropped and a reconnect is pending. */
  disconnected: boolean;
  /** The server refused this machine (close 4403): no retry. */
  denied: boolean;
  /** No machine has this SN (close 4404, a stale link): no retry. */
  unknown: boolean;
}

type Connection = Omit<RealtimeState, 'payload'>;

const initial: Connection = {
  disconnected: false,
  denied: false,
  unknown: false,
};

/*
 * The payload's check is zod (≈ 25 KB gzip): it loads when the socket opens, after the page's
 * first paint, rather than with the page. A message that arrives first waits for it (in order).
 */
const loadPayloadCheck = () =>
  import('@linewatch/contracts/telemetry').then(({ realtimePayload }) => realtimePayload);

/** Live data of one machine over its real-time socket (contracts telemetry-api.ts). */
export const useRealtime = (snCode: string | null, createSocket?: SocketFactory): RealtimeState => {
  const [state, setState] = useState<Connection>(initial);
  const client = useQueryClient();
  // Filled by the socket only (skipToken: never fetched).
  const { data: payload = null } = useQuery<RealtimePayload>({
    queryKey: queryKeys.telemetry.realtime(snCode ?? ''),
    queryFn: skipToken,
  });

  useEffect(() => {
    setState(initial);
    if (!snCode) return;
    let live = true;
    let check: ReturnType<typeof loadPayloadCheck> | null = null;
    // A failed load is tried again by the next open or message.
    const payloadCheck = () =>
      (check ??= loadPayloadCheck().catch((error: unknown) => {
        check = null;
        throw error;
      }));
    const hello: RealtimeClientMessage = {
      SN: snCode,
      MsgType: 'machineFunction',
      machineFunctionName: 'machineList',
    };
    const connection = openSocket({
      // Never the keyId in the URL (it would be logged): the same-origin handshake carries the
      // cookie, and the keyId rides as a subprotocol for browsers that drop cookies on sockets.
      url: () => socketUrl(sockets.realtime.path(snCode)),
      protocols: () => {
        const keyId = useSession.getState().keyId;
        return keyId ? [SOCKET_PROTOCOL, SOCKET_KEY_PROTOCOL_PREFIX + keyId] : [SOCKET_PROTOCOL];
      },
      hello: () => hello,
      createSocket,
      onMessage: (data) => {
        payloadCheck().then(
          (realtimePayload) => {
            const parsed = realtimePayload.safeParse(data);
            if (live && parsed.success && parsed.data.SN === snCode) {
              client.setQueryData(queryKeys.telemetry.realtime(snCode), parsed.data);
            }
          },
          () => undefined,
        );
      },
      onStatus: (status) => {
        if (status === 'open') {
          void payloadCheck().catch(() => undefined);
          setState((current) => ({ ...current, disconnected: false }));
        }
        if (status === 'closed') setState((current) => ({ ...current, disconnected: true }));
      },
      shouldReconnect: (code) => {
        if (code === SOCKET_CLOSE.notSignedIn) {
          expireSession();
          return false;
        }
        if (code === SOCKET_CLOSE.forbidden) {
          toastFailure(messages.forbidden);
          setState((current) => ({ ...current, denied: true }));
          return false;
        }
        if (code === SOCKET_CLOSE.unknownMachine) {
          setState((current) => ({ ...current, unknown: true }));
          return false;
        }
        return code !== SOCKET_CLOSE.badRequest;
      },
    });
    return () => {
      live = false;
      connection.close();
    };
  }, [snCode, createSocket, client]);

  return { ...state, payload: snCode ? payload : null };
};
