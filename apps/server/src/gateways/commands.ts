import {
  gatewayCommandReply,
  type GatewayCommand,
  type GatewayCommandBody,
  type GatewayCommandReply,
} from '@linewatch/contracts/gateway-commands';
import { TOPIC_ROOT, topicOf } from '@linewatch/contracts/mqtt';
import type { FastifyBaseLogger } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { Bus } from '../foundation/broker/bus.ts';

/** A command got no reply: the maintenance socket answers 504. */
export class GatewayNoReplyError extends Error {
  constructor(
    readonly gatewayId: string,
    readonly command: GatewayCommandBody['type'],
    readonly reason: 'timeout' | 'broker-unreachable' | 'closing',
    timeoutMs: number,
  ) {
    super(
      reason === 'timeout'
        ? `gateway ${gatewayId} did not answer ${command} within ${timeoutMs} ms`
        : `gateway ${gatewayId}: ${command} not answered (${reason})`,
    );
  }
}

interface CommandCounters {
  sent: number;
  replied: number;
  timedOut: number;
  /** Replies for no waiting command: late (after the timeout), duplicated or made up. */
  unmatchedReplies: number;
  malformedReplies: number;
  /** Replies from gateways this server never registered: another server shares the broker. */
  unknownGatewayReplies: number;
}

interface Pending {
  gatewayId: string;
  command: GatewayCommandBody['type'];
  timeoutMs: number;
  resolve: (reply: GatewayCommandReply) => void;
  reject: (error: GatewayNoReplyError) => void;
  timer: NodeJS.Timeout;
}

const PREFIX = `${TOPIC_ROOT}/`;

/**
 * Commands to one gateway and their replies. Each command carries a fresh correlation id; the
 * gateway's reply on its cmd/reply topic repeats it. The broker's ACL lets a gateway publish only
 * under its own id, so a reply must also come from the gateway the command went to.
 */
export class GatewayCommands {
  readonly counters: CommandCounters = {
    sent: 0,
    replied: 0,
    timedOut: 0,
    unmatchedReplies: 0,
    malformedReplies: 0,
    unknownGatewayReplies: 0,
  };
  readonly #pending = new Map<string, Pending>();

  constructor(
    private readonly bus: Pick<Bus, 'publish'>,
    private readonly log: Pick<FastifyBaseLogger, 'debug'>,
    /** Whether the gateway is one of this server's (presence knows every registered one). */
    private readonly isRegistered: (gatewayId: string) => boolean,
    /** docs/design.md section 6: the phone is answered 504 when the gateway did not reply in 10 s. */
    private readonly timeoutMs = 10_000,
  ) {}

  /** Resolves with the gateway's reply, whatever its code; rejects with GatewayNoReplyError. */
  send(
    gatewayId: string,
    body: GatewayCommandBody,
    timeoutMs = this.timeoutMs,
  ): Promise<GatewayCommandReply> {
    const correlationId = randomBytes(12).toString('base64url');
    return new Promise((resolve, reject) => {
      const message: GatewayCommand = { ...body, correlationId };
      const timer = setTimeout(() => {
        this.#pending.delete(correlationId);
        this.counters.timedOut++;
        reject(new GatewayNoReplyError(gatewayId, body.type, 'timeout', timeoutMs));
      }, timeoutMs);
      this.#pending.set(correlationId, {
        gatewayId,
        command: body.type,
        timeoutMs,
        resolve,
        reject,
        timer,
      });
      if (!this.bus.publish(topicOf(gatewayId, 'cmd'), JSON.stringify(message))) {
        this.#settle(correlationId);
        reject(new GatewayNoReplyError(gatewayId, body.type, 'broker-unreachable', timeoutMs));
        return;
      }
      this.counters.sent++;
    });
  }

  /** A notice nobody waits for (no reply is expected); false when the broker is unreachable. */
  notify(gatewayId: string, body: GatewayCommandBody): boolean {
    const message: GatewayCommand = {
      ...body,
      correlationId: randomBytes(12).toString('base64url'),
    };
    return this.bus.publish(topicOf(gatewayId, 'cmd'), JSON.stringify(message));
  }

  /** Every message on `lw/v1/gw/+/cmd/reply`. Never throws. */
  handleReply = (topic: string, payload: Buffer) => {
    const gatewayId = topic.slice(PREFIX.length, topic.indexOf('/', PREFIX.length));
    if (!this.isRegistered(gatewayId)) {
      this.counters.unknownGatewayReplies++;
      return;
    }
    let reply: GatewayCommandReply;
    try {
      reply = gatewayCommandReply.parse(JSON.parse(payload.toString('utf8')));
    } catch {
      this.counters.malformedReplies++;
      return;
    }
    const pending = this.#pending.get(reply.correlationId);
    if (pending?.gatewayId !== gatewayId) {
      this.counters.unmatchedReplies++;
      this.log.debug({ gateway: gatewayId }, 'dropped a command reply nobody waits for');
      return;
    }
    this.#settle(reply.correlationId);
    this.counters.replied++;
    pending.resolve(reply);
  };

  /** Shutdown: whoever waits is told now rather than after the timeout. */
  close() {
    for (const [id, pending] of this.#pending) {
      this.#settle(id);
      pending.reject(
        new GatewayNoReplyError(pending.gatewayId, pending.command, 'closing', pending.timeoutMs),
      );
    }
  }

  #settle(correlationId: string) {
    const pending = this.#pending.get(correlationId);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.#pending.delete(correlationId);
  }
}
