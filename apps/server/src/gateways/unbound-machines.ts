import { unboundAdvice, type GatewayCommandBody } from '@linewatch/contracts/gateway-commands';
import type { FastifyBaseLogger } from 'fastify';
import type { DeviceRegistry } from '../core/device-registry.ts';

/** Warned pairs kept; past it they are forgotten (a gateway sending made-up SNs cannot grow it). */
const MAX_WARNED = 10_000;

/**
 * Machines a gateway polls that are not bound to it. Their data is dropped (ingest counts it as
 * `unknownMachine`): a binding is what makes a gateway's reading a machine's. That used to happen
 * without a word. Now the server warns once per gateway and machine, naming both and what to do,
 * and tells the gateway (an `unbound` notice on its cmd topic) so its agent says the same on site:
 * whenever the gateway's retained state lists such machines (each connect, each change of its
 * list), and when ingest first drops one (a gateway whose state lists none: a third-party one).
 */
export class UnboundMachines {
  readonly #warned = new Set<string>();

  constructor(
    private readonly deps: {
      registry: Pick<DeviceRegistry, 'get'>;
      log: Pick<FastifyBaseLogger, 'warn'>;
      notify: (gatewayId: string, body: GatewayCommandBody) => void;
    },
  ) {}

  /** The machines a gateway's online state says it polls. */
  polled = (gatewayId: string, sns: readonly string[]) => {
    const unbound = sns.filter((sn) => this.deps.registry.get(sn)?.gatewayId !== gatewayId);
    for (const sn of unbound) this.#warn(gatewayId, sn);
    if (unbound.length > 0) this.#notify(gatewayId, unbound);
  };

  /** Ingest dropped a reading or event of `sn` from `gatewayId`. The ingest hot path. */
  dropped = (gatewayId: string, sn: string) => {
    if (this.#warn(gatewayId, sn)) this.#notify(gatewayId, [sn]);
  };

  #notify(gatewayId: string, sns: string[]) {
    this.deps.notify(gatewayId, {
      type: 'unbound',
      machines: sns.map((sn) => ({ sn, registered: this.deps.registry.get(sn) !== undefined })),
    });
  }

  /** False when this pair was warned about already. */
  #warn(gatewayId: string, sn: string): boolean {
    const key = `${gatewayId}\n${sn}`;
    if (this.#warned.has(key)) return false;
    if (this.#warned.size >= MAX_WARNED) this.#warned.clear();
    this.#warned.add(key);
    const device = this.deps.registry.get(sn);
    this.deps.log.warn(
      { gateway: gatewayId, sn, boundTo: device?.gatewayId ?? null },
      unboundAdvice(gatewayId, sn, device !== undefined),
    );
    return true;
  }
}
