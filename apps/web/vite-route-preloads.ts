import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import type { Plugin } from 'vite';
import { asksForSession } from './src/app/guard.ts';
import { pageHtmlFile } from './src/sw/shell.ts';

/*
 * A copy of index.html per page, with a <link rel="modulepreload"> for each chunk the page's first
 * screen needs, written to dist/pages/<route>.html (the server sends it for that route).
 *
 * index.html alone names only the entry's chunks: the page's own (its layout, the page, the
 * antd-mobile parts and icons it uses) were asked for by the router once the entry had run, one
 * long task later, and the page's first render waited for that second wave of requests. Named in
 * the HTML, they download beside the entry.
 *
 * A page whose guard asks the server who the cookie is (guard.ts, asksForSession) also preloads
 * that reply: in a new webview (no token in the tab yet) it was the first request the entry made,
 * after all its scripts had run, and the page's data waited behind it. guard-loader.ts takes the
 * preloaded reply as the app starts (same URL, mode and credentials), whether the first
 * navigation needs it or not, so no later ask is answered with it.
 *
 * Which lazy chunks a route renders is read from src/app/routes.tsx, as it nests them: `const X =
 * lazyPage(() => import('…'))` names a chunk, a route whose element is <X /> puts it around its
 * children, and `path: paths.y` takes the path from src/shared/paths.ts. The same list, with the
 * entry's chunks, goes to dist/.vite/route-chunks.json for bench/web's first-screen budget.
 */

export interface RouteChunks {
  path: string;
  /** The page's module, relative to apps/web (src/features/…/pages/….tsx). */
  page: string;
  /** Every chunk of the first screen, entry first, as dist-relative file names. */
  files: string[];
}

const parse = (file: string) =>
  ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);

/** paths.ts's `export const paths = { name: '/route', … }`. */
const readPaths = (file: string): Map<string, string> => {
  const paths = new Map<string, string>();
  const visit = (node: ts.Node): void => {
    if (
      ts.isVariableDeclaration(node) &&
      node.name.getText() === 'paths' &&
      node.initializer &&
      ts.isAsExpression(node.initializer) &&
      ts.isObjectLiteralExpression(node.initializer.expression)
    ) {
      for (const property of node.initializer.expression.properties) {
        if (ts.isPropertyAssignment(property) && ts.isStringLiteral(property.initializer)) {
          paths.set(property.name.getText(), property.initializer.text);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(file));
  return paths;
};

/** Each routed path with the modules of the lazy chunks it renders (layouts first, page last). */
export const readRouteModules = (webRoot: string): { path: string; modules: string[] }[] => {
  const appDir = join(webRoot, 'src/app');
  const paths = readPaths(join(webRoot, 'src/shared/paths.ts'));
  const source = parse(join(appDir, 'routes.tsx'));

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
  const lazyModules = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const specifier = declaration.initializer && findImport(declaration.initializer);
      if (ts.isIdentifier(declaration.name) && specifier) {
        lazyModules.set(declaration.name.text, resolve(appDir, specifier));
      }
    }
  }

  const property = (route: ts.ObjectLiteralExpression, name: string) =>
    route.properties.find(
      (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText() === name,
    )?.initializer;
  const routes: { path: string; modules: string[] }[] = [];
  const visit = (node: ts.Node, around: string[]): void => {
    if (!ts.isObjectLiteralExpression(node)) {
      ts.forEachChild(node, (child) => visit(child, around));
      return;
    }
    const element = property(node, 'element');
    const lazy =
      element && ts.isJsxSelfClosingElement(element)
        ? lazyModules.get(element.tagName.getText())
        : undefined;
    const chain = lazy ? [...around, lazy] : around;
    const path = property(node, 'path');
    if (path && ts.isPropertyAccessExpression(path) && path.expression.getText() === 'paths') {
      const route = paths.get(path.name.text);
      if (!route) throw new Error(`routes.tsx: paths.${path.name.text} is not in paths.ts`);
      if (lazy) routes.push({ path: route, modules: chain });
    }
    const children = property(node, 'children');
    if (children) visit(children, chain);
  };
  visit(source, []);
  return routes;
};

/**
 * identityApi.session.path (the test holds them equal): Vite loads its config with Node, which
 * cannot import the contracts' TypeScript from node_modules.
 */
export const SESSION_PATH = '/api/session';

/** index.html for one route: its session reply and its own chunks preloaded. */
export const pageShell = (indexHtml: string, path: string, ownFiles: string[]): string => {
  const chunks = ownFiles
    .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
    .join('');
  // Before the entry's script, so the small reply the guard waits for is asked first.
  const session = asksForSession(path)
    ? `<link rel="preload" as="fetch" crossorigin href="${SESSION_PATH}">\n    `
    : '';
  return indexHtml
    .replace('<script type="module"', `${session}<script type="module"`)
    .replace('</head>', `${chunks}\n  </head>`);
};

export const routePreloads = (): Plugin => {
  let webRoot = '';
  return {
    name: 'linewatch:route-preloads',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      webRoot = config.root;
    },
    generateBundle(_, bundle) {
      const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
      const byModule = new Map(
        chunks.flatMap((chunk) => (chunk.facadeModuleId ? [[chunk.facadeModuleId, chunk]] : [])),
      );
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const closure = (files: string[], into: Set<string>): Set<string> => {
        for (const file of files) {
          if (into.has(file)) continue;
          into.add(file);
          closure(byFile.get(file)?.imports ?? [], into);
        }
        return into;
      };
      const entry = chunks.find((chunk) => chunk.isEntry);
      const html = bundle['index.html'];
      if (!entry || html?.type !== 'asset')
        throw new Error('route-preloads: no entry or index.html');
      const entryFiles = closure([entry.fileName], new Set());

      const listing: RouteChunks[] = [];
      for (const { path, modules } of readRouteModules(webRoot)) {
        const roots = modules.map((module) => {
          const chunk = byModule.get(module);
          if (!chunk) throw new Error(`route-preloads: no chunk for ${module}`);
          return chunk.fileName;
        });
        const own = [...closure(roots, new Set())].filter((file) => !entryFiles.has(file));
        this.emitFile({
          type: 'asset',
          fileName: pageHtmlFile(path),
          source: pageShell(String(html.source), path, own),
        });
        listing.push({
          path,
          page: relative(webRoot, modules.at(-1)!),
          files: [...entryFiles, ...own],
        });
      }
      this.emitFile({
        type: 'asset',
        fileName: '.vite/route-chunks.json',
        source: JSON.stringify(listing, null, 2),
      });
    },
  };
};
