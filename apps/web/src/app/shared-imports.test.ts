// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// A value imported from `@haul/shared` itself brings every route module of the contract and TypeBox into the bundle
// (their schemas are built at the top of each module); run-time imports come from `@haul/shared/plain`, types from
// either (bench/README.md, "the first visit's JavaScript without the contract").
const ROOTS = [new URL('../', import.meta.url).pathname, new URL('../../../../packages/client/src/', import.meta.url).pathname];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** The import statements of `text` that take values (not only types) from `@haul/shared` itself. */
function valueImportsOfContract(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/import\s+(type\s+)?(\{[^}]*\}|\*\s+as\s+\w+|\w+)\s+from\s+'@haul\/shared'/g)) {
    if (m[1]) continue;
    const names = m[2]!.startsWith('{') ? m[2]!.slice(1, -1).split(',').map((s) => s.trim()).filter(Boolean) : [m[2]!];
    if (names.some((n) => !n.startsWith('type '))) found.push(m[0]);
  }
  return found;
}

describe('imports of the shared package in browser code', () => {
  it('tells a value import from a type-only one', () => {
    expect(valueImportsOfContract(`import type { A } from '@haul/shared';\nimport { type B } from '@haul/shared';`)).toEqual([]);
    expect(valueImportsOfContract(`import { type B, CONTRACT } from '@haul/shared';`)).toHaveLength(1);
    expect(valueImportsOfContract(`import { MAX } from '@haul/shared/plain';`)).toEqual([]);
  });

  it('takes no value from @haul/shared itself in the web app or the API client', () => {
    const offenders = ROOTS.flatMap((root) =>
      sources(root).flatMap((file) => valueImportsOfContract(readFileSync(file, 'utf8')).map((s) => `${relative(root, file)}: ${s}`)),
    );
    expect(offenders, 'import values from @haul/shared/plain instead').toEqual([]);
  });
});
