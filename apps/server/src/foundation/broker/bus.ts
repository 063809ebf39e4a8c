import { parseTopic, topicOf, type AckMessage, type InboundKind } from '@linewatch/contracts/mqtt';

/**
 * Takes one message. A promise asks the broker to hold what gateways send next until it settles
 * (ingest, while a slow flush runs): the embedded broker keeps their new telemetry and events
 * before the PUBACK, which paces a gateway that waits for PUBACKs (the agent). Through an external
 * broker the gateways have their PUBACK from it already; the promise is not waited for there.
 */
type MessageHandler = (topic: string, payload: Buffer) => Promise<void> | undefined | void;

/**
 * How the server talks to the broker. Consumers subscribe per topic kind (ingest: telemetry and
 * events; gateway presence: state; gateway commands: cmd/reply) and anything may publish.
 */
export interface Bus {
  readonly connected: boolean;
  /**
   * Delivers every message of this kind, from any gateway, to the handler. Resolves once the
   * broker subscription is active; a retained message (state) arrives after the handler is set.
   */
  subscribe(kind: InboundKind, handler: MessageHandler): Promise<void>;
  /** QoS 1, not retained. False when the broker is out of reach (nothing is queued). */
  publish(topic: string, payload: string): boolean;
  /** Stop taking new gateway messages (first step of a graceful shutdown). */
  stopIntake(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Tells a gateway the highest seq the server has committed, with `next` where to resend from,
 * with `rejected` a message not applied (docs/protocol.md).
 */
export const publishAck = (bus: Bus, gatewayId: string, ack: AckMessage): boolean =>
  bus.publish(topicOf(gatewayId, 'ack'), JSON.stringify(ack));

/** The handlers of each kind; shared by the bus implementations. */
export class Subscribers {
  readonly #byKind = new Map<InboundKind, MessageHandler[]>();

  /** True when this is the kind's first handler (the caller subscribes at the broker then). */
  add(kind: InboundKind, handler: MessageHandler): boolean {
    const handlers = this.#byKind.get(kind);
    if (handlers) {
      handlers.push(handler);
      return false;
    }
    this.#byKind.set(kind, [handler]);
    return true;
  }

  get kinds(): InboundKind[] {
    return [...this.#byKind.keys()];
  }

  /** Hands the message to every handler of its kind; a promise when one asked to hold it. */
  deliver(kind: InboundKind, topic: string, payload: Buffer): Promise<void> | undefined {
    let hold: Promise<void> | undefined;
    for (const handler of this.#byKind.get(kind) ?? []) {
      const result = handler(topic, payload);
      if (result instanceof Promise) hold = result;
    }
    return hold;
  }

  /**
   * For a client that gets every message on one callback (mqtt.js, an external broker): the
   * gateways had their PUBACK from the broker, so a hold is not waited for (it never rejects).
   */
  dispatch(topic: string, payload: Buffer) {
    const kind = parseTopic(topic)?.kind;
    if (kind && kind !== 'cmd' && kind !== 'ack') void this.deliver(kind, topic, payload);
  }
}
