import { gatewayMessages } from '@linewatch/contracts/gateway-labels';
import type { BindMessage, MaintenanceReply, UnbindMessage } from '@linewatch/contracts/gateways';
import { messages } from '@linewatch/contracts/envelope';
import { useCallback, useEffect, useRef, useState } from 'react';
import { expireSession } from '../../shared/session-expired.ts';
import { useSession } from '../../shared/session-store.ts';
import {
  openSocket,
  socketUrl,
  type SocketConnection,
  type SocketFactory,
} from '../../shared/socket-client.ts';
import { toastFailure, toastSuccess } from '../../shared/toast.ts';

/**
 * The command is sent once per connection (on open): never again on a timer. The socket client
 * resends its hello periodically; the longest delay a timer takes (~24.8 days) means never here.
 */
const NEVER_RESEND_MS = 2_147_483_647;

type Command = BindMessage | UnbindMessage;

/*
 * The maintenance socket's contracts build zod schemas (the reply's, the realtime socket's): they
 * come with the first command, not with the page. The form's check has fetched the gateways
 * contract by then.
 */
const loadContracts = () =>
  Promise.all([import('@linewatch/contracts/gateways'), import('@linewatch/contracts/socket')]);

/**
 * One bind or unbind on the maintenance socket of a gateway (docs/product.md section 4): submit opens the
 * socket and sends the message; loading until the result arrives. Code 200 shows Content, calls
 * `onDone` (the page clears its form) and closes; another Code shows its Content and closes (the
 * next submit may name another gateway, so another socket). A socket error shows 连接异常 and the
 * socket client retries after 5 s, sending the message again.
 */
export const useMaintenance = (onDone: () => void, createSocket?: SocketFactory) => {
  const [pending, setPending] = useState(false);
  const connection = useRef<SocketConnection | null>(null);
  /** Counts sends and stops: a send whose contracts arrive after a stop opens nothing. */
  const attempt = useRef(0);
  const done = useRef(onDone);
  done.current = onDone;

  const stop = useCallback(() => {
    attempt.current += 1;
    connection.current?.close();
    connection.current = null;
    setPending(false);
  }, []);
  useEffect(() => stop, [stop]);

  const send = useCallback(
    async (serial: string, command: Command) => {
      stop();
      const current = attempt.current;
      setPending(true);
      const [{ maintenanceReply, maintenanceSocket }, socket] = await loadContracts().catch(
        (error: unknown) => {
          if (attempt.current === current) setPending(false);
          throw error;
        },
      );
      if (attempt.current !== current) return;
      const { SOCKET_CLOSE, SOCKET_KEY_PROTOCOL_PREFIX, SOCKET_PROTOCOL } = socket;
      const expected: MaintenanceReply['MsgType'] =
        command.MsgType === 'bind' ? 'bindResult' : 'unbindResult';
      connection.current = openSocket({
        url: () => socketUrl(maintenanceSocket.path(serial)),
        protocols: () => {
          const keyId = useSession.getState().keyId;
          return keyId ? [SOCKET_PROTOCOL, SOCKET_KEY_PROTOCOL_PREFIX + keyId] : [SOCKET_PROTOCOL];
        },
        hello: () => command,
        resendMs: NEVER_RESEND_MS,
        createSocket,
        onMessage: (data) => {
          const reply = maintenanceReply.safeParse(data);
          if (!reply.success || reply.data.MsgType !== expected) return;
          stop();
          if (reply.data.Code === 200) {
            toastSuccess(reply.data.Content);
            done.current();
          } else {
            toastFailure(reply.data.Content);
          }
        },
        onStatus: (status) => {
          if (status === 'closed') toastFailure(gatewayMessages.connectionError);
        },
        shouldReconnect: (code) => {
          if (code === SOCKET_CLOSE.notSignedIn) {
            setPending(false);
            expireSession();
            return false;
          }
          if (code === SOCKET_CLOSE.forbidden || code === SOCKET_CLOSE.badRequest) {
            setPending(false);
            toastFailure(
              code === SOCKET_CLOSE.forbidden ? messages.forbidden : gatewayMessages.badSerial,
            );
            return false;
          }
          return true;
        },
      });
    },
    [createSocket, stop],
  );

  return { send, pending, cancel: stop };
};
