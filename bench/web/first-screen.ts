/*
 * First-screen JavaScript per page (DESIGN.md section 7: ≤ 150 KB gzip; charts and maps load on
 * demand). Reads the chunk graph Vite writes (apps/web/dist/.vite/manifest.json): a page's first
 * screen is the entry with its static imports plus the lazy chunks its route renders — the page's
 * and those of the lazy layouts around it (tab bar, device tabs, admin gate), as apps/web's
 * routes.tsx nests them — each with its static imports; what a page loads later by import() is not
 * counted. Sizes are those of the .gz and .br files the build wrote beside each chunk, which is what
 * the server sends.
 *
 *   npm run build && npm run first-screen -w @linewatch/bench
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const BUDGET_GZIP_BYTES = 150_000;

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
}

const dist = fileURLToPath(new URL('../../apps/web/dist/', import.meta.url));
const manifestPath = join(dist, '.vite/manifest.json');
if (!existsSync(manifestPath)) {
  console.error(`${manifestPath} is missing: run npm run build first`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, Chunk>;

const staticClosure = (keys: string[], into = new Set<string>()): Set<string> => {
  for (const key of keys) {
    if (into.has(key)) continue;
    into.add(key);
    staticClosure(manifest[key]?.imports ?? [], into);
  }
  return into;
};

/** Size of the compressed copy the server sends (the plain file when it was too small to pack). */
const sentBytes = (file: string, extension: '.gz' | '.br') => {
  const packed = join(dist, file + extension);
  return statSync(existsSync(packed) ? packed : join(dist, file)).size;
};

const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
if (!entry) throw new Error('the manifest has no entry chunk');
/*
 * Which lazy chunks each page renders within, from routes.tsx: `const X = lazyPage(() =>
 * import('…'))` names a chunk, and a route whose element is <X /> puts X around all its children.
 */
const routesPath = fileURLToPath(new URL('../../apps/web/src/app/routes.tsx', import.meta.url));
const routesSource = ts.createSourceFile(
  routesPath,
  readFileSync(routesPath, 'utf8'),
  ts.ScriptTarget.Latest,
  true,
  ts.ScriptKind.TSX,
);
const lazyChunks = new Map<string, string>();
const toManifestKey = (specifier: string) =>
  'src/' +
  join('app', specifier)
    .replace(/^app\/\.\.\//, '')
    .replace(/\\/g, '/');
const findImport = (node: ts.Node): string | undefined => {
  if (
    ts.isCallExpression(node) &&
    node.expression.kind === ts.SyntaxKind.ImportKeyword &&
    node.arguments[0] &&
    ts.isStringLiteral(node.arguments[0])
  ) {
    return node.arguments[0].text;
  }
  return ts.forEachChild(node, findImport);
};
for (const statement of routesSource.statements) {
  if (!ts.isVariableStatement(statement)) continue;
  for (const declaration of statement.declarationList.declarations) {
    const specifier = declaration.initializer && findImport(declaration.initializer);
    if (ts.isIdentifier(declaration.name) && specifier) {
      lazyChunks.set(declaration.name.text, toManifestKey(specifier));
    }
  }
}
const elementChunk = (route: ts.ObjectLiteralExpression): string | undefined => {
  for (const property of route.properties) {
    if (!ts.isPropertyAssignment(property) || property.name.getText() !== 'element') continue;
    const element = property.initializer;
    if (ts.isJsxSelfClosingElement(element)) return lazyChunks.get(element.tagName.getText());
  }
  return undefined;
};
/** Page chunk → the lazy chunks rendered on its first screen (its layouts', then its own). */
const pageChunks = new Map<string, string[]>();
const visit = (node: ts.Node, around: string[]): void => {
  if (ts.isObjectLiteralExpression(node)) {
    const chunk = elementChunk(node);
    const chain = chunk ? [...around, chunk] : around;
    if (chunk && !pageChunks.has(chunk)) pageChunks.set(chunk, chain);
    for (const property of node.properties) {
      if (ts.isPropertyAssignment(property) && property.name.getText() === 'children') {
        visit(property.initializer, chain);
      }
    }
    return;
  }
  ts.forEachChild(node, (child) => visit(child, around));
};
visit(routesSource, []);

const pages = Object.keys(manifest)
  .filter((key) => /\/pages\/[^/]+\.tsx$/.test(key))
  .sort();

const kb = (bytes: number) => (bytes / 1000).toFixed(1).padStart(6);
console.log('page                                            gzip KB  brotli KB  chunks');
let over = 0;
for (const page of pages) {
  const rendered = pageChunks.get(page);
  if (!rendered) throw new Error(`routes.tsx renders no route with ${page}`);
  const files = [...staticClosure([entry, ...rendered])].map((key) => manifest[key]!.file);
  const gzip = files.reduce((sum, file) => sum + sentBytes(file, '.gz'), 0);
  const brotli = files.reduce((sum, file) => sum + sentBytes(file, '.br'), 0);
  const mark = gzip > BUDGET_GZIP_BYTES ? '  OVER BUDGET' : '';
  if (mark) over++;
  console.log(
    `${page.replace(/^src\/features\//, '').padEnd(46)} ${kb(gzip)}    ${kb(brotli)}  ${String(files.length).padStart(6)}${mark}`,
  );
}
console.log(`budget: ${BUDGET_GZIP_BYTES / 1000} KB gzip per first screen`);
process.exitCode = over > 0 ? 1 : 0;
