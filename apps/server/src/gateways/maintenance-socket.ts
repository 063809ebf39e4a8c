import {
  maintenanceMessageType,
  maintenanceSocket,
  type MaintenanceReply,
} from '@linewatch/contracts/gateways';
import { SOCKET_CLOSE } from '@linewatch/contracts/socket';
import type { FastifyInstance } from 'fastify';
import type { SocketAuth } from '../plugins/auth.ts';
import { refuseForeignOrigin } from '../plugins/socket-origin.ts';
import type { GatewaysService } from './service.ts';

/**
 * `/ws/maintenance/{serial}_maintain` (docs/design.md section 6): the phone sends a bind or unbind
 * payload, the server relays it to that gateway and answers `{ MsgType, Code, Content }`. One
 * command at a time per socket: a second message while one is relayed is answered after it.
 */
export const maintenanceSocketRoute = async (
  app: FastifyInstance,
  deps: { socketAuth: SocketAuth; gateways: GatewaysService; publicUrl: string | undefined },
) => {
  app.get<{ Params: { channel: string } }>(
    maintenanceSocket.route,
    {
      websocket: true,
      config: { public: true },
      preValidation: refuseForeignOrigin(deps.publicUrl),
    },
    (socket, request) => {
      const serial = maintenanceSocket.serialOf(request.params.channel);
      // Listening before the session is checked: the phone sends as soon as the socket opens,
      // and a message arriving during the check would otherwise be lost. Messages wait for it.
      const signedIn = deps.socketAuth.authenticate(request, socket, 'maintenance').then((user) => {
        if (user && serial === null) socket.close(SOCKET_CLOSE.badRequest, 'bad path');
        return serial === null ? null : user;
      });
      let queue: Promise<unknown> = signedIn;
      socket.on('message', (data: Buffer) => {
        queue = queue
          .then(async () => {
            const user = await signedIn;
            if (!user || serial === null) return;
            let raw: unknown;
            try {
              raw = JSON.parse(data.toString('utf8'));
            } catch {
              raw = null;
            }
            const type = maintenanceMessageType.safeParse(raw);
            if (!type.success) return socket.close(SOCKET_CLOSE.badRequest, 'bad message');
            const bind = type.data.MsgType === 'bind';
            const outcome = bind
              ? await deps.gateways.bind(user, serial, raw)
              : await deps.gateways.unbind(user, serial, raw);
            const reply: MaintenanceReply = {
              MsgType: bind ? 'bindResult' : 'unbindResult',
              ...outcome,
            };
            if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(reply));
          })
          .catch((error: unknown) => {
            request.log.error({ err: error }, 'maintenance command failed');
            if (socket.readyState === socket.OPEN) socket.close(1011, 'server error');
          });
      });
    },
  );
};
