import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { protocolSchemaFiles } from '../src/protocol-schemas.ts';

// npm run protocol:schemas — rewrites docs/protocol/schemas/ from the contracts.
const dir = fileURLToPath(new URL('../../../docs/protocol/schemas/', import.meta.url));
mkdirSync(dir, { recursive: true });
const files = protocolSchemaFiles();
for (const old of readdirSync(dir)) if (!files.has(old)) rmSync(`${dir}${old}`);
for (const [name, text] of files) writeFileSync(`${dir}${name}`, text);
console.log(`wrote ${files.size} schemas to docs/protocol/schemas/`);
