import pg from 'pg';

const RECONNECT_MS = 1000;

/**
 * One dedicated PostgreSQL connection that LISTENs on channels, for news other processes (another
 * server instance, the admin CLI) send with NOTIFY when they commit. A notice sent while the
 * connection was down is lost, so after a reconnect every channel's handler runs once as if told.
 */
export class PgListener {
  #client: pg.Client | null = null;
  #handlers = new Map<string, () => void>();
  #closed = false;
  #timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly onError: (error: Error) => void,
  ) {}

  async listen(channel: string, handler: () => void): Promise<void> {
    this.#handlers.set(channel, handler);
    if (this.#client) await this.#client.query(`LISTEN "${channel}"`);
    else await this.#connect(false);
  }

  async #connect(reconnecting: boolean): Promise<void> {
    const client = new pg.Client(this.config);
    client.on('notification', (n) => this.#handlers.get(n.channel)?.());
    client.on('error', (error) => {
      this.onError(error);
      this.#lost(client);
    });
    client.on('end', () => this.#lost(client));
    await client.connect();
    for (const channel of this.#handlers.keys()) await client.query(`LISTEN "${channel}"`);
    if (this.#closed) {
      await client.end();
      return;
    }
    this.#client = client;
    if (reconnecting) for (const handler of this.#handlers.values()) handler();
  }

  #lost(client: pg.Client) {
    if (this.#client !== client || this.#closed) return;
    this.#client = null;
    const retry = () => {
      this.#timer = null;
      this.#connect(true).catch((error: Error) => {
        this.onError(error);
        if (!this.#closed) this.#timer = setTimeout(retry, RECONNECT_MS);
      });
    };
    this.#timer = setTimeout(retry, RECONNECT_MS);
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    const client = this.#client;
    this.#client = null;
    await client?.end();
  }
}
