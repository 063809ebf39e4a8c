import fs from 'node:fs';
import { addPlcProfiles, PlcProfilesError } from './plc-profiles.ts';

/**
 * A site's PLC profiles file (JSON, the shape of plc-profiles.json) read and added to the known
 * models: the server, the agent and plc-sim each load the same file. Node only.
 */
export const loadPlcProfilesFile = (file: string): string[] => {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new PlcProfilesError(`PLC profiles ${file}: cannot read: ${(error as Error).message}`);
  }
  return addPlcProfiles(raw, file);
};
