import pg from 'pg';

const RECONNECT_MS = 1000;

/**
 * Called with a notice's payload, or with `undefined` after the connection came back: notices
 * sent while it was down are lost, so the handler must assume anything may have changed.
 */
export type NoticeHandler = (payload: string | undefined) => void;

/**
 * One dedicated PostgreSQL connection that LISTENs on channels, for news other processes (another
 * server instance, the admin CLI) send with NOTIFY when they commit. A notice sent while the
 * connection was down is lost, so after a reconnect every channel's handlers run once as if told
 * everything.
 */
export class PgListener {
  #client: pg.Client | null = null;
  #handlers = new Map<string, Set<NoticeHandler>>();
  #closed = false;
  /** The first connection, while it is being made (several channels may ask for it at once). */
  #connecting: Promise<void> | null = null;
  #timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly onError: (error: Error) => void,
  ) {}

  async listen(channel: string, handler: NoticeHandler): Promise<void> {
    const handlers = this.#handlers.get(channel);
    if (handlers) {
      handlers.add(handler);
      return;
    }
    this.#handlers.set(channel, new Set([handler]));
    if (this.#client) await this.#client.query(`LISTEN "${channel}"`);
    // Lost and waiting to reconnect: the reconnect listens on every channel known by then.
    else if (this.#timer) return;
    // The connection being made listens on every channel added before it is done.
    else
      await (this.#connecting ??= this.#connect(false).finally(() => {
        this.#connecting = null;
      }));
  }

  async #connect(reconnecting: boolean): Promise<void> {
    const client = new pg.Client(this.config);
    client.on('notification', (n) => {
      for (const handler of this.#handlers.get(n.channel) ?? []) handler(n.payload ?? '');
    });
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
    if (reconnecting)
      for (const handlers of this.#handlers.values())
        for (const handler of handlers) handler(undefined);
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
