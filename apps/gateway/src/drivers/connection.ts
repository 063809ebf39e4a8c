interface ConnectionOptions<C> {
  /** Named in the error of a read refused while waiting to reconnect: `PLC 10.0.0.5:502`. */
  what: string;
  /** The least time between two connection attempts after a failure. */
  reconnectMs: number;
  /** Makes a connection; rejects when the PLC cannot be reached (after its own clean-up). */
  open: () => Promise<C>;
  /** Whether a connection made earlier is still usable. */
  isOpen: (client: C) => boolean;
  /** Closes a connection, quietly. */
  close: (client: C) => Promise<void> | void;
}

/**
 * The one connection a driver keeps to its PLC (Modbus TCP, S7), whatever the client library:
 * made when a read needs it, shared by reads that come while it is being made, dropped when a
 * read over it fails, and not tried again before `reconnectMs` has passed, so a machine whose
 * PLC is away goes silent, costs one attempt per `reconnectMs`, and is read again once it is back.
 */
export class PlcConnection<C> {
  #client: C | null = null;
  #connecting: Promise<C> | null = null;
  #retryAt = 0;

  constructor(private readonly options: ConnectionOptions<C>) {}

  /** `read` over the connection (made first if need be); a read that fails drops it. */
  async use<T>(now: number, read: (client: C) => Promise<T>): Promise<T> {
    const client = await this.#connect(now);
    try {
      return await read(client);
    } catch (error) {
      this.#drop(now);
      throw error;
    }
  }

  /** Closes the connection (or the one being made) for good. */
  async close(): Promise<void> {
    this.#retryAt = Infinity;
    const client = this.#client ?? (await this.#connecting?.catch(() => null));
    this.#client = null;
    if (client && this.options.isOpen(client)) await this.options.close(client);
  }

  #connect(now: number): Promise<C> {
    const { what, reconnectMs, open, isOpen } = this.options;
    if (this.#client && isOpen(this.#client)) return Promise.resolve(this.#client);
    if (now < this.#retryAt) return Promise.reject(new Error(`${what} unreachable, retry later`));
    this.#connecting ??= open()
      .then(
        (client) => (this.#client = client),
        (error: unknown) => {
          this.#retryAt = Date.now() + reconnectMs;
          throw error;
        },
      )
      .finally(() => {
        this.#connecting = null;
      });
    return this.#connecting;
  }

  #drop(now: number) {
    const client = this.#client;
    this.#client = null;
    this.#retryAt = now + this.options.reconnectMs;
    if (client && this.options.isOpen(client)) void this.options.close(client);
  }
}
