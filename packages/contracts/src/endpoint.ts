/**
 * One REST endpoint: its method and path, and the types of its input (query for a GET, body for a
 * POST) and of its reply's `data`. Zod-free, so the first screen can import every table: the
 * types come by `import type` from the schema files. The server routes, the web's `call`, the
 * tests and the bench all take paths from these tables (docs/conventions.md, Layout).
 */
export interface Endpoint<Input, Reply> {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** Never set: carries the types. */
  readonly types?: (input: Input) => Reply;
}

export const endpoint = <Input, Reply>(
  method: Endpoint<Input, Reply>['method'],
  path: string,
): Endpoint<Input, Reply> => ({ method, path });
