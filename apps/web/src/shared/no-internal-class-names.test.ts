import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * antd-mobile's class names (adm-list-item-content-prefix, adm-tabs-tab, …) are its internals:
 * any release may rename them, and a style or a still copy built on them breaks silently. The app
 * styles antd-mobile through its documented CSS variables (--adm-color-primary, List's
 * --padding-left, …) and its className/style props, and draws its own looks with its own classes.
 */
const INTERNAL_CLASS = /(^|[\s.'"`])adm-[a-z]/;
const root = join(import.meta.dirname, '..');

/** The app's sources and index.html (its first paint), tests aside. */
const sources = (): string[] => [
  join(root, '../index.html'),
  ...readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(tsx?|css)$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => join(root, file)),
];

describe('the web app', () => {
  it('names none of antd-mobile’s internal classes', () => {
    const found = sources().flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${relative(root, file)}:${i + 1}` }))
        .filter(({ line }) => INTERNAL_CLASS.test(line))
        .map(({ at, line }) => `${at}  ${line.trim()}`),
    );
    expect(sources().length).toBeGreaterThan(100);
    expect(found).toEqual([]);
  });
});
