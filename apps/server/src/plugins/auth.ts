import {
  KEY_ID_COOKIE,
  KEY_ID_HEADER,
  SOCKET_MAX_PAYLOAD_BYTES,
} from '@linewatch/contracts/limits';
import {
  SOCKET_CLOSE,
  SOCKET_KEY_PROTOCOL_PREFIX,
  SOCKET_PROTOCOL,
} from '@linewatch/contracts/socket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { WebSocket } from 'ws';
import type { Notice } from '../foundation/db/notices.ts';
import type { Actor } from '../foundation/shared/audit.ts';
import type { SignedInWith } from '../foundation/db/schema/identity.ts';
import { forbidden, notSignedIn } from '../foundation/http/envelope.ts';

/** The signed-in user of a request or socket, as the identity domain resolves a keyId. */
export interface SessionUser {
  userId: number;
  name: string;
  nickName: string;
  isAdmin: boolean;
  keyHash: string;
  /** How the session signed in; absent (a session made in a test) means a password. */
  signedInWith?: SignedInWith;
}

/** A sign-out, or every session of a user ended (the identity domain announces them). */
export type SessionsEnded = Notice<'sessions_ended'>;

/**
 * What the plugin asks of sessions, handed over by the identity module: no domain is imported
 * here.
 */
export interface Sessions {
  /** The user of a keyId, or null (unknown, expired, ended). */
  authenticate(keyId: string): Promise<SessionUser | null>;
  /** Which of these sessions (by key hash) are still alive. */
  liveSessions(keyHashes: string[]): Promise<Set<string>>;
  /** Called on every ended session; returns how to stop listening. */
  onSessionEnded(listener: (ended: SessionsEnded) => void): () => void;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a keyId. */
    public?: boolean;
    /** Changes state even though it is a GET: the cookie alone is refused. */
    stateChanging?: boolean;
    /** Administration: a signed-in user who is not an admin gets 0403. */
    adminOnly?: boolean;
  }
  interface FastifyRequest {
    user: SessionUser | null;
  }
  interface FastifyInstance {
    /** Authenticates socket handshakes (the real-time socket, the maintenance socket to come). */
    socketAuth: SocketAuth;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Finds the keyId of a request: the header always counts; the cookie only for reads and socket
 * handshakes, so a forged cross-site form cannot change anything (docs/design.md section 6). Never a
 * query parameter: URLs end up in logs, proxies and browser history.
 */
export const keyIdOf = (request: FastifyRequest): string | undefined => {
  const header = request.headers[KEY_ID_HEADER.toLowerCase()];
  if (typeof header === 'string' && header) return header;
  const cookieAllowed =
    SAFE_METHODS.has(request.method) && !request.routeOptions.config.stateChanging;
  return cookieAllowed ? request.cookies[KEY_ID_COOKIE] || undefined : undefined;
};

export const authPlugin = fp(
  async (app: FastifyInstance, { sessions }: { sessions: Sessions }) => {
    app.decorateRequest('user', null);
    app.addHook('onRequest', async (request) => {
      // Only the API needs a keyId: the web app's files are public, and sockets authorise in
      // their own handler through `SocketAuth`.
      const url = request.routeOptions.url;
      if (!url?.startsWith('/api/') || request.routeOptions.config.public) return;
      const keyId = keyIdOf(request);
      const user = keyId ? await sessions.authenticate(keyId) : null;
      if (!user) throw notSignedIn();
      if (request.routeOptions.config.adminOnly && !user.isAdmin) throw forbidden();
      request.user = user;
    });
    const socketAuth = createSocketAuth(sessions);
    app.decorate('socketAuth', socketAuth);
    app.addHook('onClose', async () => socketAuth.close());
  },
  { name: 'auth' },
);

/** The signed-in user of a route that is not public (the hook guarantees one). */
/** A route's config for administration (users, lines, machines): anyone else gets 0403. */
export const adminOnly = { adminOnly: true } as const;

/** The signed-in user as the author of a change (the audit log's actor). */
export const actorOf = (request: FastifyRequest): Actor => {
  const user = userOf(request);
  return { id: user.userId, name: user.name };
};

export const userOf = (request: FastifyRequest): SessionUser => {
  if (!request.user) throw notSignedIn();
  return request.user;
};

// ---------------------------------------------------------------------------------------------
// Sockets

/**
 * The keyId of a socket handshake: the keyId header (non-browser clients), a
 * `Sec-WebSocket-Protocol` value `lw-key.<keyId>` beside `linewatch`, or the cookie (a browser
 * sends it with a same-origin handshake). Never the URL.
 */
export const socketKeyIdOf = (request: FastifyRequest): string | undefined => {
  const header = request.headers[KEY_ID_HEADER.toLowerCase()];
  if (typeof header === 'string' && header) return header;
  const protocols = request.headers['sec-websocket-protocol'];
  if (typeof protocols === 'string') {
    for (const value of protocols.split(',')) {
      const protocol = value.trim();
      if (
        protocol.startsWith(SOCKET_KEY_PROTOCOL_PREFIX) &&
        protocol.length > SOCKET_KEY_PROTOCOL_PREFIX.length
      )
        return protocol.slice(SOCKET_KEY_PROTOCOL_PREFIX.length);
    }
  }
  return request.cookies[KEY_ID_COOKIE] || undefined;
};

/** ws's handleProtocols: answer `linewatch`, never echo the protocol that carries the keyId. */
const selectSocketProtocol = (protocols: Set<string>): string | false =>
  protocols.has(SOCKET_PROTOCOL) ? SOCKET_PROTOCOL : false;

// ws's own codes for a peer that broke the protocol (a frame over maxPayload, a bad opcode,
// invalid UTF-8…), and a connection the peer dropped.
const CLIENT_FAULT = /^(?:WS_ERR_|ECONNRESET$|EPIPE$|ETIMEDOUT$)/;
const warned = new WeakSet<WebSocket>();

/**
 * Errors on an open socket. A client's fault is logged once per connection as a warning
 * without a stack — @fastify/websocket logged every oversized frame as an error with its stack,
 * so anyone could flood the log by opening sockets — and ws closes it with the fitting code
 * (1009 for a frame too large). Anything else is ours: an error with its stack, socket ended.
 */
function socketError(this: unknown, error: Error, socket: WebSocket, request: FastifyRequest) {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && CLIENT_FAULT.test(code)) {
    if (warned.has(socket)) return;
    warned.add(socket);
    request.log.warn({ socketError: code, reason: error.message }, 'socket closed: client fault');
    return;
  }
  request.log.error({ err: error }, 'socket error');
  socket.terminate();
}

/** @fastify/websocket's options: small client messages, the keyId never echoed as protocol. */
export const websocketOptions = {
  options: { maxPayload: SOCKET_MAX_PAYLOAD_BYTES, handleProtocols: selectSocketProtocol },
  errorHandler: socketError,
};

/** The server's sockets, as the open-socket count names them (plugins/metrics.ts). */
export type SocketKind = 'realtime' | 'maintenance';

/**
 * Whether a socket's user may still have what it streams, asked again when that may have changed
 * (their lines or rights, the machine's line): null to keep it, else how to close it.
 */
export type AccessCheck = () => Promise<{ code: number; reason: string } | null>;

/** How often open sockets' sessions are checked for expiry or removal (well within 5 s). */
const REVALIDATE_MS = 2_000;
const REVALIDATE_CHUNK = 500;

/**
 * Socket authentication in one place (the real-time socket now, the maintenance socket later):
 * resolves the handshake's session, and closes every socket of a session with 4405 when it ends —
 * at once on sign-out or when its user's sessions are ended (through any instance: identity hears
 * the others'), within REVALIDATE_MS when it expires or ends in a way no one announced.
 */
const createSocketAuth = (sessions: Sessions) => {
  const bySession = new Map<string, { userId: number; sockets: Set<WebSocket> }>();
  const open: Record<SocketKind, number> = { realtime: 0, maintenance: 0 };
  const checks = new Map<WebSocket, AccessCheck>();

  const recheck = async (sockets: Iterable<WebSocket>) => {
    await Promise.all(
      [...sockets].map(async (socket) => {
        const check = checks.get(socket);
        if (!check) return;
        // Fails closed: a check that cannot answer (the database is away) ends the stream; the
        // phone reconnects in 5 s and its handshake is checked afresh.
        const verdict = await check().catch(() => ({ code: 1011, reason: 'server error' }));
        if (verdict && socket.readyState === socket.OPEN)
          socket.close(verdict.code, verdict.reason);
      }),
    );
  };

  const closeSession = (keyHash: string) => {
    const session = bySession.get(keyHash);
    if (!session) return;
    bySession.delete(keyHash);
    for (const socket of session.sockets) socket.close(SOCKET_CLOSE.notSignedIn, 'not signed in');
  };
  const unsubscribe = sessions.onSessionEnded((ended: SessionsEnded) => {
    if ('session' in ended) closeSession(ended.session);
    else
      for (const [keyHash, session] of bySession)
        if (session.userId === ended.user) closeSession(keyHash);
  });

  let checking = false;
  const timer = setInterval(() => {
    if (checking || bySession.size === 0) return;
    checking = true;
    void (async () => {
      try {
        const hashes = [...bySession.keys()];
        for (let i = 0; i < hashes.length; i += REVALIDATE_CHUNK) {
          const chunk = hashes.slice(i, i + REVALIDATE_CHUNK);
          const live = await sessions.liveSessions(chunk);
          for (const hash of chunk) if (!live.has(hash)) closeSession(hash);
        }
      } catch {
        // the database is busy or closing: the next tick checks again
      } finally {
        checking = false;
      }
    })();
  }, REVALIDATE_MS);
  timer.unref();

  return {
    /**
     * The user of a socket handshake, or null after closing the socket with 4405. The socket is
     * tracked until it closes, so its session ending closes it too.
     */
    async authenticate(
      request: FastifyRequest,
      socket: WebSocket,
      kind: SocketKind,
    ): Promise<SessionUser | null> {
      const keyId = socketKeyIdOf(request);
      const user = keyId ? await sessions.authenticate(keyId) : null;
      if (!user || socket.readyState !== socket.OPEN) {
        socket.close(SOCKET_CLOSE.notSignedIn, 'not signed in');
        return null;
      }
      let session = bySession.get(user.keyHash);
      if (!session)
        bySession.set(user.keyHash, (session = { userId: user.userId, sockets: new Set() }));
      session.sockets.add(socket);
      open[kind]++;
      socket.on('close', () => {
        checks.delete(socket);
        open[kind]--;
        const current = bySession.get(user.keyHash);
        current?.sockets.delete(socket);
        if (current?.sockets.size === 0) bySession.delete(user.keyHash);
      });
      return user;
    },
    /** Asks `check` again whenever what the socket's user may see may have changed. */
    guard(socket: WebSocket, check: AccessCheck): void {
      if (socket.readyState === socket.OPEN) checks.set(socket, check);
    },
    /**
     * These users' lines or rights changed (null: anyone's may have), here, through another
     * instance or the CLI: their guarded sockets check again, and close if refused now.
     */
    usersChanged(userIds: readonly number[] | null): Promise<void> {
      const changed = userIds && new Set(userIds);
      const sockets: WebSocket[] = [];
      for (const session of bySession.values())
        if (!changed || changed.has(session.userId)) sockets.push(...session.sockets);
      return recheck(sockets);
    },
    /** These sockets check again (what they stream moved: a machine to another line). */
    recheck,
    /** Signed-in sockets open now, by kind. */
    openSockets(): Readonly<Record<SocketKind, number>> {
      return open;
    },
    close() {
      clearInterval(timer);
      unsubscribe();
    },
  };
};

export type SocketAuth = ReturnType<typeof createSocketAuth>;
