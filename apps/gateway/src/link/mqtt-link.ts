import { connect, type MqttClient } from 'mqtt';

const CLOSE_TIMEOUT_MS = 2000;

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
}

interface MqttLinkOptions {
  url: string;
  clientId: string;
  username: string;
  password: string;
  keepaliveSec: number;
  reconnectMinMs: number;
  reconnectMaxMs: number;
  /** Built for every connection attempt, so a timestamp in it is current. */
  will: () => { topic: string; payload: string };
  log: Logger;
  /** The link is up: the caller announces itself, subscribes and replays. */
  onConnect: () => void;
  onDisconnect: () => void;
  onMessage: (topic: string, payload: Buffer) => void;
}

/**
 * One MQTT connection that keeps coming back. mqtt.js retries at a fixed period, which makes a
 * fleet reconnect in lockstep after a broker restart; instead every attempt is a fresh client
 * (no stale in-flight store replaying behind our own in-order replay) scheduled after an
 * exponential backoff with ±50% jitter.
 */
export class MqttLink {
  private client: MqttClient | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private failures = 0;
  private closed = false;

  constructor(private readonly options: MqttLinkOptions) {}

  start(): void {
    this.attempt();
  }

  get connected(): boolean {
    return this.client?.connected === true;
  }

  /** Publishes at QoS 1; resolves on PUBACK (the broker has it), rejects if the link drops first. */
  async publish(topic: string, payload: string, opts: { retain?: boolean } = {}): Promise<void> {
    const client = this.client;
    if (!client?.connected) throw new Error('not connected');
    await client.publishAsync(topic, payload, { qos: 1, retain: opts.retain ?? false });
  }

  async subscribe(topics: string[]): Promise<void> {
    const client = this.client;
    if (!client?.connected) throw new Error('not connected');
    const granted = await client.subscribeAsync(topics, { qos: 1 });
    // A broker ACL refuses a subscription with QoS 128 in the SUBACK rather than an error.
    const refused = granted.filter((g) => g.qos === 128).map((g) => g.topic);
    if (refused.length > 0) throw new Error(`subscription refused: ${refused.join(', ')}`);
  }

  /** Disconnects cleanly (no last will) and stops reconnecting. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    if (!client?.connected) {
      client?.end(true);
      return;
    }
    // A clean DISCONNECT waits for every in-flight PUBACK; a dying link must not hold up shutdown
    // (what is in flight is still in the buffer, and the broker then publishes the will).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      client.endAsync(),
      new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_TIMEOUT_MS))),
    ]);
    clearTimeout(timer);
    client.stream.destroy();
  }

  private attempt(): void {
    this.retryTimer = null;
    const { url, clientId, username, password, keepaliveSec, will } = this.options;
    const { topic, payload } = will();
    const client = connect(url, {
      clientId,
      username,
      password,
      keepalive: keepaliveSec,
      protocolVersion: 4,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: 10_000,
      will: { topic, payload: Buffer.from(payload), qos: 1, retain: true },
    });
    this.client = client;
    let wasConnected = false;
    let lastError = '';
    client.on('connect', () => {
      wasConnected = true;
      this.failures = 0;
      this.options.log.info(`connected to ${hostOf(url)}`);
      this.options.onConnect();
    });
    client.on('message', (messageTopic, message) => this.options.onMessage(messageTopic, message));
    client.on('error', (error) => {
      lastError = error.message;
    });
    client.on('close', () => {
      if (this.client !== client) return;
      this.client = null;
      client.end(true);
      if (this.closed) return;
      const delay = this.backoff();
      if (wasConnected) {
        this.options.log.warn(
          `link lost${lastError && ` (${lastError})`}; reconnecting in ${seconds(delay)}`,
        );
        this.options.onDisconnect();
      } else if (this.failures === 1 || this.failures % 10 === 0) {
        this.options.log.warn(
          `connect failed ${this.failures}x (${lastError || 'closed'}); next try in ${seconds(delay)}`,
        );
      }
      this.retryTimer = setTimeout(() => this.attempt(), delay);
    });
  }

  private backoff(): number {
    const { reconnectMinMs, reconnectMaxMs } = this.options;
    const base = Math.min(reconnectMaxMs, reconnectMinMs * 2 ** Math.min(this.failures, 30));
    this.failures++;
    return Math.round(base * (0.5 + Math.random()));
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'broker';
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;
