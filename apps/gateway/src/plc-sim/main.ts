import { plcProfiles } from '@linewatch/contracts/plc-profiles';
import { loadPlcProfilesFile } from '@linewatch/contracts/plc-profiles-file';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { simulatedMachine } from '../config.ts';
import { startSimulatedPlcs, type SimulatedPlc } from './simulated-plc.ts';

/*
 * Simulated PLCs on their own. One: `npm run plc-sim -- --port 5020 [--host 127.0.0.1]
 * [--model FX5U] [--unit-id 1] [--sn SIM-1] [--ppm 60] [--time-scale 1] [--state-dir dir]`. Many
 * (the demo): `npm run plc-sim -- --plcs plcs.json [--host …] [--state-dir dir]`, all in this one
 * process: one server per port of the file's entries (below), Modbus TCP, OPC UA or S7 as the
 * model's profile says (Modbus entries on one port are units behind it, told apart by unit id).
 * Prints `listening <host>:<port> …` per PLC once it accepts connections; SIGTERM / SIGINT stop
 * them.
 */
const usage =
  "usage: plc-sim --port <port> [--host 127.0.0.1] [--model FX5U] [--unit-id <profile's>] [--sn SIM-1] [--ppm 60] [--time-scale 1] [--state-dir <dir>]\n" +
  '       plc-sim --plcs <file.json> [--host 127.0.0.1] [--state-dir <dir>]\n' +
  '       either with [--profiles <site-profiles.json>]';

/**
 * An entry of `--plcs`: a simulated machine (as in the agent's config) at a port and unit id.
 * Port 0: one free port, shared by every entry that gives 0.
 */
const plcEntry = simulatedMachine.omit({ driver: true }).extend({
  port: z.number().int().min(0).max(65_535),
  /** Default: the model's. */
  unitId: z.number().int().min(0).max(255).optional(),
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
        'unit-id': { type: 'string' },
        sn: { type: 'string', default: 'SIM-1' },
        ppm: { type: 'string', default: '60' },
        'time-scale': { type: 'string', default: '1' },
        'state-dir': { type: 'string' },
        profiles: { type: 'string' },
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
// A site's models (the agent's plcProfilesFile) before any entry names one.
if (values.profiles) {
  try {
    loadPlcProfilesFile(values.profiles);
  } catch (error) {
    fail(`plc-sim: ${(error as Error).message}`);
  }
}
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
        const unitId = values['unit-id'] === undefined ? undefined : Number(values['unit-id']);
        if (unitId !== undefined && !(Number.isInteger(unitId) && unitId >= 0 && unitId <= 255))
          fail(`plc-sim: --unit-id must be 0 to 255\n${usage}`);
        return {
          port,
          unitId,
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
// Modbus entries on one port are units behind it; an OPC UA or S7 PLC has a port of its own.
type Entry = (typeof entries)[number];
const groups: Entry[][] = [];
const modbusPorts = new Map<number, Entry[]>();
for (const entry of entries) {
  if (plcProfiles[entry.model]!.protocol !== 'modbus') {
    groups.push([entry]);
    continue;
  }
  const units = modbusPorts.get(entry.port);
  if (units) units.push(entry);
  else {
    const group = [entry];
    modbusPorts.set(entry.port, group);
    groups.push(group);
  }
}
// All at once: an OPC UA server takes seconds to start, the Modbus PLCs need not wait for it.
await Promise.all(
  groups.map(async (units) => {
    const { port } = units[0]!;
    const protocol = plcProfiles[units[0]!.model]!.protocol;
    let plc: SimulatedPlc;
    try {
      plc = await startSimulatedPlcs({
        host: values.host,
        port,
        units: units.map(({ unitId, model, port: _, ...machine }) => ({
          unitId,
          profile: plcProfiles[model]!,
          machine: { ...machine, stateDir: values['state-dir'] },
        })),
        ...(values['state-dir'] && { pkiDir: path.join(values['state-dir'], 'opcua-pki') }),
      });
    } catch (error) {
      // One PLC that cannot be served (node-snap7 not built) leaves the others running.
      console.error(
        `plc-sim: ${protocol} PLC of ${units.map((u) => u.sn).join(', ')} on port ${port} not started: ${(error as Error).message}`,
      );
      return;
    }
    plcs.push(plc);
    for (const { model, sn, unitId } of units)
      console.log(
        `listening ${plc.host}:${plc.port} model ${model} (${protocol})` +
          (protocol === 'modbus'
            ? ` unit ${unitId ?? (plcProfiles[model] as { unitId: number }).unitId}`
            : '') +
          ` sn ${sn}`,
      );
  }),
);
if (plcs.length === 0) process.exit(1);
