import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../../client/src/route-table.js';
import { CONTRACT, isRaw, type RouteDef } from './index.js';

// The API client calls routes through a table generated from CONTRACT (it keeps the schemas out of the web app): a
// route added, removed or changed here without regenerating it would send requests the server does not expect.
describe('the API client route table', () => {
  it('holds every route of CONTRACT with its method, path, auth and raw answer', () => {
    const expected = Object.fromEntries(
      Object.entries(CONTRACT as Record<string, RouteDef>).map(([name, d]) => [name, { method: d.method, path: d.path, auth: d.auth, raw: isRaw(d.response) }]),
    );
    expect(ROUTES, 'packages/client/src/route-table.ts does not match CONTRACT: run `npm run gen:routes`').toEqual(expected);
  });
});
