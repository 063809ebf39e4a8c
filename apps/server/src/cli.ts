/**
 * The administration command line, for a fresh install with no admin yet and for scripts
 * (`npm run admin` prints every command):
 *
 *   npm run admin -- create-admin --psn A001 --name 张三
 *   npm run admin -- add-line --name 一线 | add-group --line 一线 --name 组装
 *   npm run admin -- import-machines --file 机台.xlsx | export-machines --file 机台.xlsx
 *   npm run admin -- add-machine --sn SN-1 --line 一线 --device-name 冲压机 --ppm-target 60
 *   npm run admin -- create-user --psn E001 --name 李四 --lines 一线,二线
 *   npm run admin -- list-applications | approve --id 3 --lines 一线 | reject --id 4 --reason …
 *   npm run admin -- gateway:register <serial> [name] | gateway:rotate <serial> | gateway:list
 *
 * A password is never an argument (shell history, process lists): it comes from
 * LINEWATCH_PASSWORD or a prompt. It opens the database the server uses (same DATA_DIR /
 * DATABASE_URL); the embedded database is locked by a running server, so stop it first there.
 * Every change goes through the users, lines and machines services and lands in the audit log as
 * actor "cli"; an approval's SMS goes to the embedded channel's outbox, which the admin screen
 * shows.
 */
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { ConfigError, loadConfig } from './foundation/config/config.ts';
import { openDatabase } from './foundation/db/database.ts';
import { announceMachinesChanged } from './core/device-registry.ts';
import { DomainError } from './foundation/http/envelope.ts';
import { createIdentityRepository } from './identity/repository.ts';
import { CliError, runCli } from './cli-commands.ts';
import { createEmbeddedSmsChannel } from './applications/sms.ts';
import { runGatewayCommand } from './gateways/cli.ts';

/** Reads a password without echoing it, twice (a typo would lock the first admin out). */
const promptPassword = async (): Promise<string> => {
  const fromEnv = process.env.LINEWATCH_PASSWORD;
  if (fromEnv) return fromEnv;
  if (!process.stdin.isTTY) throw new CliError('请通过环境变量 LINEWATCH_PASSWORD 或终端输入密码');
  const ask = (question: string) =>
    new Promise<string>((resolve) => {
      const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
      const output = rl as unknown as { _writeToOutput: (text: string) => void };
      process.stdout.write(question);
      output._writeToOutput = () => undefined;
      rl.question('', (answer) => {
        rl.close();
        process.stdout.write('\n');
        resolve(answer);
      });
    });
  const first = await ask('密码: ');
  if (first !== (await ask('再次输入密码: '))) throw new CliError('两次输入的密码不一致');
  return first;
};

const main = async () => {
  // The contract schemas' messages in Chinese where a schema names none, as the server answers.
  z.config(z.locales.zhCN());
  let database;
  try {
    database = await openDatabase(loadConfig());
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : (error as Error).message);
    process.exit(1);
  }
  const argv = process.argv.slice(2);
  const print = (line: string) => console.log(line);
  try {
    // gateway:register / rotate / list / help (gateways/cli.ts), else the admin commands.
    if (!(await runGatewayCommand(database.db, argv, print))) {
      const sms = createEmbeddedSmsChannel(database.db, { info: () => undefined });
      await runCli(argv, database.db, {
        print,
        password: promptPassword,
        tell: (mobile, text) => sms.send(mobile, text),
        machinesChanged: () => announceMachinesChanged(database.db),
        endUserSessions: (userId) =>
          createIdentityRepository(database.db).deleteUserSessions(userId),
      });
    }
  } catch (error) {
    if (error instanceof CliError || error instanceof DomainError) {
      console.error(error.message);
      process.exitCode = 1;
    } else throw error;
  } finally {
    await database.close();
  }
};

await main();
