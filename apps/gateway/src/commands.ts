import {
  correlationIdSchema,
  gatewayCommand,
  NOT_SUPPORTED_CONTENT,
  type GatewayCommand,
  type GatewayCommandReply,
} from '@linewatch/contracts/gateway-commands';
import type { Logger } from './link/mqtt-link.ts';

type BindCommand = Extract<GatewayCommand, { type: 'bind' }>;
type UnboundCommand = Extract<GatewayCommand, { type: 'unbound' }>;

/** What bind and unbind change: the machines this gateway polls (bind/machines.ts). */
export interface MachineBindings {
  bind(command: BindCommand): Promise<Omit<GatewayCommandReply, 'correlationId'>>;
  unbind(snCode: string): Promise<Omit<GatewayCommandReply, 'correlationId'>>;
  /** The server's notice: these polled machines are not bound to this gateway. */
  notBound(machines: UnboundCommand['machines']): void;
}

interface CommandHandlerOptions {
  /** Publishes the reply on this gateway's cmd/reply topic. */
  reply: (reply: GatewayCommandReply) => Promise<void>;
  bindings: MachineBindings;
  log: Logger;
}

const KNOWN = new Set<string>(['ping', 'bind', 'unbind', 'unbound']);

/**
 * A command as received: answered at once (ping, malformed, unknown), or one to carry out
 * (bind, unbind). Null: nothing anyone could match an answer to. No I/O, so tested alone.
 */
export const parseCommand = (
  payload: Buffer,
): { reply: GatewayCommandReply } | { command: GatewayCommand } | null => {
  let raw: unknown;
  try {
    raw = JSON.parse(payload.toString('utf8'));
  } catch {
    return null;
  }
  const parsed = gatewayCommand.safeParse(raw);
  if (parsed.success) {
    const command = parsed.data;
    return command.type === 'ping'
      ? { reply: { correlationId: command.correlationId, code: 200, content: '网关在线' } }
      : { command };
  }
  // Without a usable correlation id nobody could match an answer: drop it.
  const correlationId = correlationIdSchema.safeParse(
    (raw as { correlationId?: unknown } | null)?.correlationId,
  );
  if (!correlationId.success) return null;
  const type = (raw as { type?: unknown }).type;
  // A command from a newer server is refused as unsupported, a broken one as bad input.
  return {
    reply:
      typeof type === 'string' && !KNOWN.has(type)
        ? { correlationId: correlationId.data, code: 501, content: NOT_SUPPORTED_CONTENT }
        : { correlationId: correlationId.data, code: 400, content: '命令格式不正确' },
  };
};

/**
 * Commands from the server on `lw/v1/gw/{id}/cmd`, each answered with the same correlation id.
 * Bind and unbind run one at a time, in arrival order, so two of them never race on the
 * machine list.
 */
export class CommandHandler {
  #queue: Promise<void> = Promise.resolve();

  constructor(private readonly options: CommandHandlerOptions) {}

  handle(payload: Buffer) {
    const { reply, log, bindings } = this.options;
    const parsed = parseCommand(payload);
    if (!parsed) {
      log.warn('ignored a malformed command');
      return;
    }
    const send = (result: GatewayCommandReply) =>
      // No link now: the server's wait times out, which is what it would see anyway.
      reply(result).catch((error: unknown) =>
        log.warn(`reply to command ${result.correlationId} not sent: ${String(error)}`),
      );
    if ('reply' in parsed) {
      void send(parsed.reply);
      return;
    }
    const { command } = parsed;
    // A notice: nobody waits for an answer.
    if (command.type === 'unbound') {
      bindings.notBound(command.machines);
      return;
    }
    this.#queue = this.#queue.then(async () => {
      let outcome: Omit<GatewayCommandReply, 'correlationId'>;
      try {
        switch (command.type) {
          case 'bind':
            outcome = await bindings.bind(command);
            break;
          case 'unbind':
            outcome = await bindings.unbind(command.snCode);
            break;
          case 'ping':
            return; // answered at parse
        }
      } catch (error) {
        log.warn(`${command.type} failed: ${String(error)}`);
        outcome = { code: 500, content: '网关执行失败' };
      }
      await send({ correlationId: command.correlationId, ...outcome });
    });
  }
}
