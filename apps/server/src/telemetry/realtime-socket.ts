import { EQUIPMENT_STATUS } from '@linewatch/contracts/rules/machine-states';
import { sockets as socketPaths } from '@linewatch/contracts/telemetry-api';
import { SOCKET_CLOSE } from '@linewatch/contracts/socket';
import { realtimeClientMessage, realtimePayload } from '@linewatch/contracts/telemetry';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { DeviceRegistry } from '../core/device-registry.ts';
import type { DevicesService } from '../devices/service.ts';
import type { MachineCheck } from '../plugins/visibility.ts';
import type { SocketAuth } from '../plugins/auth.ts';
import { refuseForeignOrigin } from '../plugins/socket-origin.ts';
import type { LiveState } from '../core/live-state.ts';
import { contractWriter } from '../foundation/http/reply-serializer.ts';
import { slicedDrain } from '../foundation/shared/sliced-drain.ts';
import { presentRealtime } from './realtime-presenter.ts';

export interface RealtimeDeps {
  socketAuth: SocketAuth;
  devices: DevicesService;
  registry: DeviceRegistry;
  live: LiveState;
  timeZone: string;
  publicUrl: string | undefined;
  /** Alarm code → description, shown with the machine's active alarms. */
  alarmDescriptions: ReadonlyMap<string, string>;
}

const STATUS_CHECK_MS = 5_000;
const MAX_BUFFERED_BYTES = 1 << 20;
/** Machines pushed in one turn of the event loop. */
const PUSH_SLICE = 200;
/** A push's text, written as replies are (decision 77): twice JSON.stringify's speed here. */
export const writeRealtime = contractWriter(realtimePayload, 'the real-time payload');

export const realtimeSocket = async (app: FastifyInstance, deps: RealtimeDeps) => {
  const sockets = new Map<string, Set<WebSocket>>();
  const lastStatus = new Map<string, number>();

  const push = (sn: string) => {
    const listeners = sockets.get(sn);
    const device = deps.registry.get(sn);
    if (!listeners?.size || !device) return;
    const payload = presentRealtime(
      device,
      deps.live,
      deps.timeZone,
      Date.now(),
      deps.alarmDescriptions,
    );
    lastStatus.set(sn, payload.EquipmentStatus);
    const text = writeRealtime(payload);
    for (const socket of listeners) {
      if (socket.readyState === socket.OPEN && socket.bufferedAmount < MAX_BUFFERED_BYTES)
        socket.send(text);
    }
  };

  // Several readings of one machine in one tick become one push, with its latest figures. The
  // machines changed are pushed PUSH_SLICE a turn of the event loop: with 10,000 machines a flush
  // changes thousands at once, and pushing them in one task held the loop 1.2–1.9 s under load
  // (issue 27), in front of every request and ack.
  const pushSoon = slicedDrain(PUSH_SLICE, push);
  const unsubscribe = deps.live.onChange((sn) => {
    if (sockets.has(sn)) pushSoon(sn);
  });
  // A machine that falls silent changes to offline without a message: look for that.
  const statusTimer = setInterval(() => {
    for (const sn of sockets.keys()) {
      const status = deps.live.statusOf(sn);
      if ((status === 'offLine') !== (lastStatus.get(sn) === EQUIPMENT_STATUS.offLine)) push(sn);
    }
  }, STATUS_CHECK_MS);
  // A machine moved to another line (or deleted): its watchers may no longer see it.
  const unfollowRegistry = deps.registry.onReload((before) => {
    for (const [sn, listeners] of sockets)
      if (before.get(sn)?.lineId !== deps.registry.get(sn)?.lineId)
        void deps.socketAuth.recheck(listeners);
  });
  app.addHook('onClose', async () => {
    unsubscribe();
    unfollowRegistry();
    clearInterval(statusTimer);
  });

  const closingFor = (check: MachineCheck) =>
    check.ok
      ? null
      : check.reason === 'unknown'
        ? // An SN no machine has (a stale link): the phone asks to choose again from the list.
          { code: SOCKET_CLOSE.unknownMachine, reason: 'unknown machine' }
        : { code: SOCKET_CLOSE.forbidden, reason: 'forbidden' };

  app.get<{ Params: { snCode: string } }>(
    socketPaths.realtime.route,
    {
      websocket: true,
      config: { public: true },
      preValidation: refuseForeignOrigin(deps.publicUrl),
    },
    (socket, request) => {
      const sn = request.params.snCode;
      // Listening before the session and the machine are checked: the phone sends as soon as the
      // socket opens, and a message arriving during the check would otherwise be lost. Messages
      // wait for the check (the gateways' maintenance socket does the same).
      const admitted = (async () => {
        const user = await deps.socketAuth.authenticate(request, socket, 'realtime');
        if (!user) return false;
        const refused = closingFor(await deps.devices.checkMachine(user, sn));
        if (refused) {
          socket.close(refused.code, refused.reason);
          return false;
        }
        // Closed while it was checked: nothing to register.
        if (socket.readyState !== socket.OPEN) return false;
        deps.socketAuth.guard(socket, async () =>
          closingFor(await deps.devices.checkMachineAgain(user.userId, sn)),
        );
        let set = sockets.get(sn);
        if (!set) sockets.set(sn, (set = new Set()));
        set.add(socket);
        socket.on('close', () => {
          set.delete(socket);
          if (set.size === 0) sockets.delete(sn);
        });
        push(sn);
        return true;
      })().catch((error: unknown) => {
        request.log.error({ err: error }, 'real-time socket check failed');
        if (socket.readyState === socket.OPEN) socket.close(1011, 'server error');
        return false;
      });
      socket.on('message', (data: Buffer) => {
        void admitted.then((ok) => {
          if (!ok) return;
          let message: unknown;
          try {
            message = JSON.parse(data.toString('utf8'));
          } catch {
            message = null;
          }
          if (!realtimeClientMessage.safeParse(message).success) {
            return socket.close(SOCKET_CLOSE.badRequest, 'bad message');
          }
          push(sn);
        });
      });
    },
  );
};
