import {
  correlationIdSchema,
  gatewayCommand,
  NOT_SUPPORTED_CONTENT,
  type GatewayCommand,
  type GatewayCommandReply,
} from '@linewatch/contracts/gateway-commands';
import type { Logger } from './link/mqtt-link.ts';

interface CommandHandlerOptions {
  /** Publishes the reply on this gateway's cmd/reply topic. */
  reply: (reply: GatewayCommandReply) => Promise<void>;
  log: Logger;
}

const KNOWN = new Set<string>(['ping', 'bind', 'unbind']);

/** What the agent answers; no I/O, so it is tested alone. */
export const answer = (payload: Buffer): GatewayCommandReply | null => {
  let raw: unknown;
  try {
    raw = JSON.parse(payload.toString('utf8'));
  } catch {
    return null;
  }
  const parsed = gatewayCommand.safeParse(raw);
  if (parsed.success) return execute(parsed.data);
  // Without a usable correlation id nobody could match an answer: drop it.
  const correlationId = correlationIdSchema.safeParse(
    (raw as { correlationId?: unknown } | null)?.correlationId,
  );
  if (!correlationId.success) return null;
  const type = (raw as { type?: unknown }).type;
  // A command from a newer server is refused as unsupported, a broken one as bad input.
  return typeof type === 'string' && !KNOWN.has(type)
    ? { correlationId: correlationId.data, code: 501, content: NOT_SUPPORTED_CONTENT }
    : { correlationId: correlationId.data, code: 400, content: '命令格式不正确' };
};

const execute = (command: GatewayCommand): GatewayCommandReply => {
  const { correlationId } = command;
  switch (command.type) {
    case 'ping':
      return { correlationId, code: 200, content: '网关在线' };
    // Binding changes which machines this gateway polls; the agent's machines come from its
    // configuration file for now.
    case 'bind':
    case 'unbind':
      return { correlationId, code: 501, content: NOT_SUPPORTED_CONTENT };
  }
};

/** Commands from the server on `lw/v1/gw/{id}/cmd`, each answered with the same correlation id. */
export class CommandHandler {
  constructor(private readonly options: CommandHandlerOptions) {}

  handle(payload: Buffer) {
    const { reply, log } = this.options;
    const result = answer(payload);
    if (!result) {
      log.warn('ignored a malformed command');
      return;
    }
    // No link now: the server's wait times out, which is what it would see anyway.
    reply(result).catch((error: unknown) =>
      log.warn(`reply to command ${result.correlationId} not sent: ${String(error)}`),
    );
  }
}
