import type { OperationEvent } from '@linewatch/contracts/mqtt';
import type { OpcuaProfile } from '@linewatch/contracts/plc-profiles';
import type {
  ClientSession,
  ClientSubscription,
  DataValue,
  OPCUAClient,
  UserIdentityInfo,
} from 'node-opcua-client';
import type { DriverReading, MachineDriver } from './driver.ts';
import { addressesOf, imageOf, rawFiguresOf, ReadingMaker } from './figures.ts';

export interface OpcuaMachineOptions {
  sn: string;
  /** opc.tcp://host:port/path */
  endpointUrl: string;
  profile: OpcuaProfile;
  securityMode: (typeof OPCUA_SECURITY_MODES)[number];
  securityPolicy: (typeof OPCUA_SECURITY_POLICIES)[number];
  /** Anonymous when absent. */
  user?: { userName: string; password: string } | undefined;
  /** The client's own certificate (secure channel); one is made in `pkiDir` when absent. */
  certificate?: { certificateFile: string; privateKeyFile: string } | undefined;
  /** The client's certificate store: its own certificate, and the servers it has seen. */
  pkiDir: string;
  /** Monitored items (the server pushes changes); false: one Read request a poll. */
  subscribe: boolean;
  /** A request unanswered this long fails. */
  timeoutMs: number;
  /** The longest wait between two connection attempts. */
  reconnectMs: number;
  /** How often the server samples and publishes changes. */
  publishingIntervalMs: number;
}

export const OPCUA_SECURITY_MODES = ['None', 'Sign', 'SignAndEncrypt'] as const;
/** The policies OPC UA has not deprecated. */
export const OPCUA_SECURITY_POLICIES = [
  'None',
  'Basic256Sha256',
  'Aes128_Sha256_RsaOaep',
  'Aes256_Sha256_RsaPss',
] as const;

/** node-opcua takes a second to load: only an agent with an OPC UA machine pays for it. */
const loadOpcua = async () => ({
  ...(await import('node-opcua-client')),
  ...(await import('node-opcua-certificate-manager')),
});

/** A Variant's value as a number: Int64/UInt64 come as [high, low] 32-bit halves. */
const numberOf = (nodeId: string, value: unknown): number => {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'number'))
    return (value[0] as number) * 0x1_0000_0000 + (value[1] as number);
  throw new Error(`${nodeId} holds ${JSON.stringify(value)}, expected a number`);
};

/**
 * One machine behind an OPC UA server, its figures at the node ids of its profile (no browsing).
 * The connection is made in the background and kept: node-opcua's client reconnects with
 * backoff and recovers the session (reactivated, or created anew after a server restart, with
 * the subscription transferred or created again). With `subscribe`, the server pushes each
 * change to monitored items and a read answers from those values; a server that refuses
 * subscriptions is read with one Read request a poll. A read fails while the connection is down
 * or any figure is missing or bad, so the machine goes silent as a Modbus PLC that stops
 * answering does.
 */
export class OpcuaDriver implements MachineDriver {
  readonly sn: string;
  readonly #nodes: string[];
  readonly #readings: ReadingMaker;
  #client: OPCUAClient | null = null;
  #session: ClientSession | null = null;
  #subscription: ClientSubscription | null = null;
  /** The last value of each node (subscription mode); null until it arrives. */
  readonly #values: (DataValue | null)[];
  #live = false;
  #problem = 'connecting';
  #closed = false;
  readonly #started: Promise<void>;

  constructor(private readonly options: OpcuaMachineOptions) {
    this.sn = options.sn;
    this.#nodes = addressesOf(options.profile, 'nodeId');
    this.#values = this.#nodes.map(() => null);
    this.#readings = new ReadingMaker(
      options.sn,
      options.profile.setpoints.map((s) => s.name),
    );
    this.#started = this.#run();
  }

  async read(now: number): Promise<DriverReading> {
    if (!this.#live || !this.#session) throw new Error(`OPC UA ${this.#problem}`);
    const values = this.#subscription ? this.#values : await this.#readAll(this.#session);
    return this.#readings.reading(now, this.#imageOf(values));
  }

  takeEvents(): OperationEvent[] {
    return this.#readings.takeEvents();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#live = false;
    await this.#started;
    await this.#session?.close().catch(() => undefined);
    await this.#client?.disconnect().catch(() => undefined);
  }

  /** Connects and opens the session; a refused session is tried again (a server starting up). */
  async #run() {
    const opcua = await loadOpcua();
    while (!this.#closed) {
      try {
        await this.#start(opcua);
        return;
      } catch (error) {
        this.#problem = `${this.options.endpointUrl}: ${firstLine(error)}`;
        await this.#client?.disconnect().catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, this.options.reconnectMs));
      }
    }
  }

  async #start(opcua: Awaited<ReturnType<typeof loadOpcua>>) {
    const { options } = this;
    const client = opcua.OPCUAClient.create({
      applicationName: 'Linewatch gateway',
      endpointMustExist: false,
      securityMode: opcua.MessageSecurityMode[options.securityMode],
      securityPolicy: opcua.SecurityPolicy[options.securityPolicy],
      clientCertificateManager: new opcua.OPCUACertificateManager({
        rootFolder: options.pkiDir,
        // A PLC's self-signed certificate is trusted on first use (docs/gateways.md).
        automaticallyAcceptUnknownCertificate: true,
      }),
      ...options.certificate,
      requestedSessionTimeout: 60_000,
      defaultTransactionTimeout: options.timeoutMs,
      keepSessionAlive: true,
      // Forever: a PLC switched off for a week is read again when it comes back.
      connectionStrategy: {
        maxRetry: -1,
        // node-opcua wants the longest wait above the first.
        initialDelay: Math.min(200, options.reconnectMs / 2),
        maxDelay: options.reconnectMs,
      },
    });
    this.#client = client;
    client.on('connection_lost', () => this.#down('connection lost, reconnecting'));
    client.on('backoff', () => {
      if (!this.#session) this.#problem = `cannot reach ${options.endpointUrl}, retrying`;
    });
    client.on('connection_reestablished', () => void this.#refresh());
    await client.connect(options.endpointUrl);
    if (this.#closed) return;
    const session = await client.createSession(
      options.user
        ? ({ type: opcua.UserTokenType.UserName, ...options.user } satisfies UserIdentityInfo)
        : { type: opcua.UserTokenType.Anonymous },
    );
    this.#session = session;
    if (this.#closed) return;
    session.on('session_restored', () => void this.#refresh());
    if (options.subscribe) await this.#subscribe(session, opcua);
    if (!this.#subscription) await this.#refresh();
  }

  async #subscribe(session: ClientSession, opcua: Awaited<ReturnType<typeof loadOpcua>>) {
    const { AttributeIds, TimestampsToReturn } = opcua;
    const interval = this.options.publishingIntervalMs;
    let subscription: ClientSubscription;
    try {
      subscription = await session.createSubscription2({
        requestedPublishingInterval: interval,
        requestedMaxKeepAliveCount: 10,
        requestedLifetimeCount: 60,
        maxNotificationsPerPublish: 0,
        publishingEnabled: true,
        priority: 1,
      });
    } catch (error) {
      // Servers without subscriptions (BadServiceUnsupported, BadTooManySubscriptions).
      console.warn(
        `[opcua ${this.sn}] no subscription (${(error as Error).message}): reading every poll`,
      );
      return;
    }
    this.#subscription = subscription;
    await Promise.all(
      this.#nodes.map(async (nodeId, i) => {
        const item = await subscription.monitor(
          { nodeId, attributeId: AttributeIds.Value },
          { samplingInterval: interval, queueSize: 1, discardOldest: true },
          TimestampsToReturn.Neither,
        );
        item.on('changed', (value: DataValue) => (this.#values[i] = value));
        item.on('err', (message: string) => {
          this.#values[i] = null;
          this.#problem = `${nodeId}: ${message}`;
        });
      }),
    );
    this.#live = true;
  }

  /**
   * After a reconnect the monitored items may not repeat values that did not change (a
   * transferred subscription): one Read brings them all up to date before reads resume.
   */
  async #refresh() {
    const session = this.#session;
    if (!session || this.#closed) return;
    try {
      const values = await this.#readAll(session);
      if (this.#subscription) values.forEach((v, i) => (this.#values[i] = v));
      this.#live = true;
    } catch (error) {
      this.#problem = firstLine(error);
    }
  }

  async #readAll(session: ClientSession): Promise<DataValue[]> {
    // 13: the Value attribute.
    return session.read(this.#nodes.map((nodeId) => ({ nodeId, attributeId: 13 })));
  }

  #down(problem: string) {
    this.#live = false;
    this.#problem = problem;
  }

  #imageOf(values: readonly (DataValue | null)[]) {
    const number = (nodeId: string) => {
      const value = values[this.#nodes.indexOf(nodeId)];
      if (!value) throw new Error(`OPC UA ${nodeId}: no value yet`);
      if (!value.statusCode.isGood()) throw new Error(`OPC UA ${nodeId}: ${value.statusCode.name}`);
      return numberOf(nodeId, value.value.value);
    };
    return imageOf(rawFiguresOf(this.options.profile, 'nodeId', number));
  }
}

const firstLine = (error: unknown) => String((error as Error).message ?? error).split('\n')[0]!;
