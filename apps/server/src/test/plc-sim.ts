import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './server-process.ts';
import { waitFor } from './wait.ts';

export interface PlcProcess {
  port: number;
  stop(): Promise<void>;
}

const plcSimMain = join(REPO_ROOT, 'apps/gateway/src/plc-sim/main.ts');

/** A PLC behind a shared port, told apart by its unit id. */
interface PlcUnit {
  unitId: number;
  model: string;
  sn: string;
}

/**
 * The simulated Modbus PLC (apps/gateway plc-sim) as its own process on 127.0.0.1, exactly as
 * `npm run plc-sim` starts it; port 0 picks a free one. With `units`: those PLCs behind one
 * free port (a `--plcs` file), each at its unit id.
 */
export const runSimulatedPlc = async ({
  port = 0,
  model = 'FX5U',
  sn = 'SIM-1',
  timeScale = 60,
  units,
  profiles,
}: {
  port?: number;
  model?: string;
  sn?: string;
  timeScale?: number;
  units?: PlcUnit[];
  /** A site's PLC profiles file (`--profiles`). */
  profiles?: string;
} = {}): Promise<PlcProcess> => {
  const args = units
    ? [
        '--plcs',
        (() => {
          const file = join(mkdtempSync(join(tmpdir(), 'lw-plcs-')), 'plcs.json');
          writeFileSync(
            file,
            JSON.stringify(units.map((u) => ({ ...u, port: 0, ppmTarget: 120, timeScale }))),
          );
          return file;
        })(),
      ]
    : [
        '--port',
        String(port),
        '--model',
        model,
        '--sn',
        sn,
        '--ppm',
        '120',
        '--time-scale',
        String(timeScale),
      ];
  if (profiles) args.push('--profiles', profiles);
  const child = spawn(process.execPath, ['--import', 'tsx', plcSimMain, ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const listening = await waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`plc-sim exited: ${stderr}`);
      return /listening [\d.]+:(\d+)/.exec(stdout);
    },
    { timeout: 30_000, what: 'the simulated PLC listening' },
  );
  return {
    port: Number(listening[1]),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
};
