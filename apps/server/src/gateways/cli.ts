import { registerGatewayBody } from '@linewatch/contracts/gateways';
import type { Db } from '../foundation/db/database.ts';
import { DomainError } from '../foundation/http/envelope.ts';
import { createGatewaysRepository } from './repository.ts';
import { registerGateway, rotateGateway } from './service.ts';

/** The admin CLI's gateway commands (`npm run admin -- gateway:help` prints this). */
const usage = [
  'gateway:register <serial> [name]   register a gateway (12 characters); prints its secret once',
  'gateway:rotate <serial>            a new secret for a gateway; the old one stops working',
  'gateway:list                       every gateway with its state and machines',
];

const CLI_ACTOR = { userId: null, name: 'admin-cli' };

/**
 * Runs one gateway command of the admin CLI against the database. Returns false for a command
 * that is not a gateway command (the CLI tries its others); throws with a Chinese message for a
 * refused one. Run it with the server stopped when the database is the embedded one (PGlite takes
 * one process at a time); a running server learns of a new gateway at its next start.
 */
export const runGatewayCommand = async (
  db: Db,
  [command = '', ...args]: string[],
  print: (line: string) => void,
): Promise<boolean> => {
  const repo = createGatewaysRepository(db);
  const say = (credential: { serial: string; secret: string }) => {
    print(`网关 ${credential.serial}`);
    print(`密钥 ${credential.secret}`);
    print('密钥只显示这一次：请立即写入网关配置 (gateways[].password)。');
  };
  switch (command) {
    case 'gateway:register': {
      const parsed = registerGatewayBody.safeParse({ serial: args[0] ?? '', name: args[1] });
      if (!parsed.success)
        throw new DomainError('0400', parsed.error.issues[0]?.message ?? 'bad serial');
      say(await registerGateway(repo, CLI_ACTOR, parsed.data));
      return true;
    }
    case 'gateway:rotate':
      say(await rotateGateway(repo, CLI_ACTOR, args[0] ?? ''));
      return true;
    case 'gateway:help':
      usage.forEach((line) => print(line));
      return true;
    case 'gateway:list': {
      const [gateways, bindings] = await Promise.all([repo.listGateways(), repo.listBindings()]);
      for (const g of gateways) {
        const machines = bindings.filter((b) => b.gatewayId === g.serial).map((b) => b.snCode);
        print(
          `${g.serial}\t${g.online ? 'online' : 'offline'}\t${g.agentVersion ?? '-'}\t${
            g.lastSeenAt?.toISOString() ?? '-'
          }\t${machines.join(',') || '-'}`,
        );
      }
      return true;
    }
    default:
      return false;
  }
};
