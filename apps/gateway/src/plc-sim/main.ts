import { plcProfiles } from '@linewatch/contracts/plc-profiles';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { simulatedMachine } from '../config.ts';
import { startSimulatedPlc, type SimulatedPlc } from './simulated-plc.ts';

/*
 * Simulated PLCs on their own. One: `npm run plc-sim -- --port 5020 [--host 127.0.0.1]
 * [--model FX5U] [--sn SIM-1] [--ppm 60] [--time-scale 1] [--state-dir dir]`. Many (the demo):
 * `npm run plc-sim -- --plcs plcs.json [--host …] [--state-dir dir]`, one server per entry of the
 * file (below), all in this one process: Modbus TCP, OPC UA or S7 as the model's profile says. Prints `listening <host>:<port> …` per PLC
 * once it accepts connections; SIGTERM / SIGINT stop them.
 */
const usage =
  'usage: plc-sim --port <port> [--host 127.0.0.1] [--model FX5U] [--sn SIM-1] [--ppm 60] [--time-scale 1] [--state-dir <dir>]\n' +
  '       plc-sim --plcs <file.json> [--host 127.0.0.1] [--state-dir <dir>]';

/** An entry of `--plcs`: a simulated machine (as in the agent's config) on its own port. */
const plcEntry = simulatedMachine.omit({ driver: true }).extend({
  port: z.number().int().min(1).max(65_535),
  model: z.string().refine((m) => m in plcProfiles, 'unknown PLC model'),
});
const plcsFile = z.array(plcEntry).min(1);

const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};

const parse = () => {
  try {
    return parseArgs({
      options: {
        port: { type: 'string' },
        plcs: { type: 'string' },
        host: { type: 'string', default: '127.0.0.1' },
        model: { type: 'string', default: 'FX5U' },
        sn: { type: 'string', default: 'SIM-1' },
        ppm: { type: 'string', default: '60' },
        'time-scale': { type: 'string', default: '1' },
        'state-dir': { type: 'string' },
      },
    }).values;
  } catch (error) {
    return fail(`plc-sim: ${(error as Error).message}\n${usage}`);
  }
};

const readPlcs = (file: string): z.infer<typeof plcsFile> => {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    return fail(`plc-sim: cannot read ${file}: ${(error as Error).message}`);
  }
  const checked = plcsFile.safeParse(raw);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    return fail(`plc-sim: ${file}: ${issue.path.join('.')}: ${issue.message}`);
  }
  return checked.data;
};

const values = parse();
const entries = values.plcs
  ? readPlcs(values.plcs)
  : [
      (() => {
        const port = Number(values.port);
        if (values.port === undefined || !Number.isInteger(port) || port < 0 || port > 65_535)
          fail(`plc-sim: --port must be a port number\n${usage}`);
        if (!(values.model in plcProfiles))
          fail(
            `plc-sim: unknown --model ${values.model} (known: ${Object.keys(plcProfiles).join(', ')})`,
          );
        return {
          port,
          model: values.model,
          sn: values.sn,
          ppmTarget: Number(values.ppm),
          faultRate: 0.02,
          resetRate: 0,
          timeScale: Number(values['time-scale']),
        };
      })(),
    ];

const plcs: SimulatedPlc[] = [];
const stop = () =>
  void Promise.allSettled(plcs.map((plc) => plc.close())).then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// All at once: an OPC UA server takes seconds to start, the Modbus PLCs need not wait for it.
await Promise.all(
  entries.map(async ({ port, model, ...machine }) => {
    const profile = plcProfiles[model]!;
    let plc: SimulatedPlc;
    try {
      plc = await startSimulatedPlc({
        host: values.host,
        port,
        profile,
        machine: { ...machine, stateDir: values['state-dir'] },
        ...(values['state-dir'] && { pkiDir: path.join(values['state-dir'], 'opcua-pki') }),
      });
    } catch (error) {
      // One PLC that cannot be served (node-snap7 not built) leaves the others running.
      console.error(
        `plc-sim: ${profile.protocol} PLC of ${machine.sn} not started: ${(error as Error).message}`,
      );
      return;
    }
    plcs.push(plc);
    console.log(
      `listening ${plc.host}:${plc.port} model ${model} (${profile.protocol}) sn ${machine.sn}`,
    );
  }),
);
if (plcs.length === 0) process.exit(1);
