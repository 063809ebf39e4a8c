import { ackMessage, type AckMessage } from '@linewatch/contracts/mqtt';
import type { OfflineBuffer } from './buffer/offline-buffer.ts';
import type { Logger } from './link/mqtt-link.ts';

/** QoS 1 messages on the wire awaiting PUBACK; bounds memory and socket buffers during a replay. */
const MAX_IN_FLIGHT = 100;

interface SenderOptions {
  buffer: OfflineBuffer;
  /** Publishes one buffered message at QoS 1; resolves on PUBACK, rejects if the link drops. */
  publish: (kind: 'telemetry' | 'events', payload: string) => Promise<void>;
  ackTimeoutMs: number;
  log: Logger;
}

/**
 * Buffer → link. Everything from `nextToSend` on is (re)published in seq order, at most
 * MAX_IN_FLIGHT at a time. A new connection or an ack timeout starts a new round from the oldest
 * unacked message; PUBACKs from an older round no longer count. The server's ack (its committed
 * seq) trims the buffer.
 */
export class Sender {
  #nextToSend = 0;
  #inFlight = 0;
  #round = 0;
  #ready = false;
  /** Since when the oldest sent message has waited with no ack progress. */
  #waitingSince: number | null = null;
  /**
   * Resends since the last ack progress. Each doubles the wait before the next (up to 32x), so a
   * server that is down while the broker is up is not sent the whole buffer every ackTimeoutMs.
   */
  #quietResends = 0;
  /** A backlog is being resent (a replay, or the server's request): said once it is all acked. */
  #backlog = false;
  /** Since when a counter of unknown history has waited for the server's first answer. */
  #unansweredSince: number | null = null;
  readonly #retransmitTimer: NodeJS.Timeout;

  constructor(private readonly options: SenderOptions) {
    this.#retransmitTimer = setInterval(
      () => this.#checkAckTimeout(),
      Math.min(1000, Math.max(10, options.ackTimeoutMs / 4)),
    );
  }

  get ready(): boolean {
    return this.#ready;
  }

  /** A new connection: the caller announces itself and subscribes, then calls `start`. */
  connected(): number {
    this.#newRound();
    this.#quietResends = 0;
    return this.#round;
  }

  /** Starts the replay of the connection `round` (from `connected`) unless a newer one began. */
  start(round: number) {
    if (round !== this.#round) return;
    const { buffer, log } = this.options;
    this.#ready = true;
    if (!buffer.counterConfirmed) {
      // A new buffer directory: nothing goes out until the server says where this gateway's
      // counter stands (its answer to our online state), or ackTimeoutMs passes without one.
      this.#unansweredSince ??= Date.now();
      log.info('new counter: waiting for the server to say which seqs it has taken');
      return;
    }
    if (buffer.size > 0) {
      log.info(`replaying ${buffer.size} unacked messages from seq ${buffer.oldestSeq}`);
      this.#backlog = true;
    }
    this.pump();
  }

  isCurrent(round: number): boolean {
    return round === this.#round;
  }

  disconnected() {
    this.#ready = false;
    this.#newRound();
  }

  pump() {
    const { buffer, publish } = this.options;
    const current = this.#round;
    if (!buffer.counterConfirmed) return;
    while (this.#ready && this.#inFlight < MAX_IN_FLIGHT) {
      const message = buffer.nextFrom(this.#nextToSend);
      if (!message) return;
      this.#nextToSend = message.seq + 1;
      this.#inFlight++;
      this.#waitingSince ??= Date.now();
      publish(message.kind, this.#withFloor(message)).then(
        () => {
          if (current !== this.#round) return;
          this.#inFlight--;
          this.pump();
        },
        // The link dropped: the next connection starts a fresh replay.
        () => {},
      );
    }
  }

  onAck(payload: Buffer) {
    const { buffer, log } = this.options;
    let ack: AckMessage;
    try {
      ack = ackMessage.parse(JSON.parse(payload.toString()));
    } catch {
      log.warn('ignored a malformed ack');
      return;
    }
    // Seqs above any we numbered: the server's are from an earlier counter of ours (docs/protocol.md,
    // "A counter that starts again"). Nothing we hold is covered: it goes again, numbered on.
    const taken = Math.max(ack.seq, (ack.next ?? 1) - 1);
    if (!buffer.counterConfirmed) {
      // The first answer to a new counter: whatever it says, nothing of ours has been sent yet.
      this.#unansweredSince = null;
      buffer.confirmCounter(taken);
      log.info(
        `the server has seqs to ${taken}: ${buffer.size} messages held numbered from ${taken + 1}`,
      );
      this.#backlog = buffer.size > 0;
      this.#resumeFrom(taken + 1);
      return;
    }
    if (taken > buffer.lastSeq) {
      log.warn(
        `the server has seqs to ${taken}, above this gateway's ${buffer.lastSeq}: its counter was ` +
          `lost; ${buffer.size} unacknowledged messages numbered again from ${taken + 1}`,
      );
      buffer.renumberAbove(taken);
      this.#backlog = buffer.size > 0;
      this.#resumeFrom(taken + 1);
      return;
    }
    // The server holds what we sent and is still writing it (a busy database): it is not lost,
    // and resending it only adds to the server's work. The ack timer starts again.
    if (
      ack.received !== undefined &&
      ack.received <= buffer.lastSeq &&
      this.#waitingSince !== null
    ) {
      this.#waitingSince = Date.now();
      this.#quietResends = 0;
    }
    if (ack.rejected?.reason === 'malformed')
      log.warn(
        `the server rejected seq ${ack.rejected.seq ?? '(unreadable)'} as malformed: ${ack.rejected.detail}`,
      );
    const before = buffer.oldestSeq;
    buffer.ack(ack.seq);
    if (this.#backlog && buffer.size === 0) {
      this.#backlog = false;
      log.info(`caught up: the server has every message to seq ${ack.seq}`);
    }
    // A stale rejection with our counter standing: we resent what the server has (docs/protocol.md
    // § 4.6, nothing to do). What is above its `next` is on its way; resending it from there
    // drew another rejection a second, a round each, for as long as anything was in flight.
    if (ack.next !== undefined && ack.rejected?.reason !== 'stale') {
      this.#resumeFrom(ack.next);
      return;
    }
    if (buffer.oldestSeq === before) return;
    const oldest = buffer.oldestSeq;
    this.#waitingSince = oldest !== undefined && oldest < this.#nextToSend ? Date.now() : null;
    this.#quietResends = 0;
  }

  /**
   * The server did not take what was sent from `next` on (it restarted, or a message went
   * missing): resend from there now, not at the next ack timeout. The server answering at all
   * also ends the backoff of a server that was down.
   */
  #resumeFrom(next: number) {
    this.#quietResends = 0;
    // Between connecting and starting the replay (the answer to our online state): the replay
    // starts there. Disconnected: the next connection starts from the oldest anyway.
    if (!this.#ready) {
      this.#nextToSend = next;
      return;
    }
    if (next < this.#nextToSend) {
      this.options.log.info(`server asked to resend from seq ${next}`);
      this.#backlog = true;
    }
    this.#newRound();
    this.#nextToSend = next;
    this.pump();
  }

  stop() {
    clearInterval(this.#retransmitTimer);
    this.disconnected();
  }

  // The oldest message held says so (floor): everything below it is acknowledged or was dropped
  // from a full buffer, so the server may accept it past a gap instead of waiting forever.
  #withFloor(message: { seq: number; payload: string }): string {
    return message.seq === this.options.buffer.oldestSeq
      ? JSON.stringify({ ...(JSON.parse(message.payload) as object), floor: message.seq })
      : message.payload;
  }

  #newRound() {
    this.#round++;
    this.#inFlight = 0;
    this.#nextToSend = 0;
    this.#waitingSince = null;
  }

  #checkAckTimeout() {
    const { ackTimeoutMs, buffer, log } = this.options;
    if (this.#ready && this.#unansweredSince !== null && !buffer.counterConfirmed) {
      if (Date.now() - this.#unansweredSince < ackTimeoutMs) return;
      // A server that is down, or does not own this gateway yet: better sent than held for ever.
      // Should its counter be above ours, its acks say so and the rule for a lost counter applies.
      log.warn(
        `no answer from the server in ${ackTimeoutMs} ms; sending ${buffer.size} messages ` +
          `from seq ${buffer.oldestSeq ?? buffer.nextSeq} without knowing its counter`,
      );
      this.#unansweredSince = null;
      buffer.confirmCounter(0);
      this.#newRound();
      this.pump();
      return;
    }
    // Messages still awaiting the broker's PUBACK: it has not taken them, so resending cannot
    // help. The embedded broker holds PUBACKs while the server finishes a slow flush (protocol
    // § 4.2); the timer starts once the broker has what was sent.
    if (this.#inFlight > 0 && this.#waitingSince !== null) {
      this.#waitingSince = Date.now();
      return;
    }
    const timeout = ackTimeoutMs * 2 ** Math.min(this.#quietResends, 5);
    if (this.#ready && this.#waitingSince !== null && Date.now() - this.#waitingSince >= timeout) {
      log.warn(
        `no ack for ${timeout} ms; resending ${buffer.size} messages from seq ${buffer.oldestSeq}`,
      );
      this.#quietResends++;
      this.#newRound();
      this.pump();
    }
  }
}
