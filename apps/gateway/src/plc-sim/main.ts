import { plcProfiles } from '@linewatch/contracts/plc-profiles';
import { parseArgs } from 'node:util';
import { startSimulatedPlc } from './simulated-plc.ts';

/*
 * A simulated PLC on its own: `npm run plc-sim -- --port 5020 [--host 127.0.0.1] [--model FX5U]
 * [--sn SIM-1] [--ppm 60] [--time-scale 1] [--state-dir dir]`. Prints `listening <host>:<port>`
 * once it accepts connections; SIGTERM / SIGINT stop it.
 */
const usage =
  'usage: plc-sim --port <port> [--host 127.0.0.1] [--model FX5U] [--sn SIM-1] [--ppm 60] [--time-scale 1] [--state-dir <dir>]';

const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};

const parse = () => {
  try {
    return parseArgs({
      options: {
        port: { type: 'string' },
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
const values = parse();
const port = Number(values.port);
if (values.port === undefined || !Number.isInteger(port) || port < 0 || port > 65_535)
  fail(`plc-sim: --port must be a port number\n${usage}`);
const profile =
  plcProfiles[values.model] ??
  fail(`plc-sim: unknown --model ${values.model} (known: ${Object.keys(plcProfiles).join(', ')})`);

const plc = await startSimulatedPlc({
  host: values.host,
  port,
  profile,
  machine: {
    sn: values.sn,
    ppmTarget: Number(values.ppm),
    faultRate: 0.02,
    resetRate: 0,
    timeScale: Number(values['time-scale']),
    stateDir: values['state-dir'],
  },
});
console.log(`listening ${plc.host}:${plc.port} model ${values.model} sn ${values.sn}`);
const stop = () => void plc.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
