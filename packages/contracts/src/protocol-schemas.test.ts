import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { protocolSchemaFiles } from './protocol-schemas.ts';

const DIR = fileURLToPath(new URL('../../../docs/protocol/schemas/', import.meta.url));

describe('docs/protocol/schemas', () => {
  it('are what the contracts make now (npm run protocol:schemas rewrites them)', () => {
    const made = protocolSchemaFiles();
    expect(readdirSync(DIR).sort()).toEqual([...made.keys()].sort());
    for (const [name, text] of made)
      expect(readFileSync(`${DIR}${name}`, 'utf8'), `docs/protocol/schemas/${name}`).toBe(text);
  });
});
