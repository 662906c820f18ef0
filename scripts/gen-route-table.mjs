// Writes packages/client/src/route-table.ts: each route's method, path, auth and whether its answer is raw, taken
// from CONTRACT. The API client reads that table instead of CONTRACT, whose TypeBox schemas would otherwise come
// with it into every bundle (the web app's first download). Run with `npm run gen:routes` after changing a route;
// packages/shared/src/contract/route-table.test.ts fails until the table matches.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CONTRACT, isRaw } from '@haul/shared';

const OUT = fileURLToPath(new URL('../packages/client/src/route-table.ts', import.meta.url));
const str = (s) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

const rows = Object.entries(CONTRACT).map(
  ([name, d]) => `  ${name}: { method: ${str(d.method)}, path: ${str(d.path)}, auth: ${str(d.auth)}, raw: ${isRaw(d.response)} },`,
);
const text = `// Generated from CONTRACT by scripts/gen-route-table.mjs: do not edit. Regenerate with \`npm run gen:routes\`.
/**
 * What the API client needs of each route at run time. The types of a call still come from the contract (type-only
 * imports); this table keeps its TypeBox schemas out of the client's bundles.
 */
import type { Auth, RouteDef, RouteName } from '@haul/shared';

export interface RouteEntry {
  method: RouteDef['method'];
  path: string;
  auth: Auth;
  /** The answer is not JSON: the call hands back the Response. */
  raw: boolean;
}

export const ROUTES: { readonly [N in RouteName]: RouteEntry } = {
${rows.join('\n')}
};
`;
writeFileSync(OUT, text);
console.log(`wrote ${rows.length} routes to ${OUT}`);
