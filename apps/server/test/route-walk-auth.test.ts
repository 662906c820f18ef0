/** Route walk, class 1: without a token every route answers 401 unless it is listed as public (PUBLIC in ./route-walk.ts). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHaul, type TestHaul } from './helper.js';
import { PUBLIC, isErrorObject, name, pathParams, publicEntry, randomId, send } from './route-walk.js';

describe('route walk: no token', () => {
  let h: TestHaul;
  beforeAll(async () => {
    h = await startTestHaul();
  });
  afterAll(() => h.destroy());

  it('answers 401 without a token, except on the listed public routes, and never 5xx', async () => {
    expect(h.routes.length).toBeGreaterThan(30);
    const failures: string[] = [];
    for (const r of h.routes) {
      const res = await send(h, r, { params: Object.fromEntries(pathParams(r.url).map((p) => [p, randomId()])), query: {} });
      const line = `${name(r)} -> ${res.status} ${res.text.slice(0, 160)}`;
      if (res.status >= 500) failures.push(`5xx: ${line}`);
      const is401 = res.status === 401 && res.body?.error === 'unauthenticated' && isErrorObject(res.body);
      if (!is401 && !publicEntry(r)) failures.push(`not 401 and not public: ${line}`);
      // A listed route that wants a token anyway means the list is wider than it needs to be.
      if (is401 && PUBLIC[name(r)]) failures.push(`listed public but answers 401: ${name(r)}`);
    }
    // The list cannot rot: every entry names a route that exists.
    const known = new Set(h.routes.flatMap((r) => [name(r), `* ${r.url}`]));
    for (const entry of Object.keys(PUBLIC)) if (!known.has(entry)) failures.push(`public entry names no route: ${entry}`);
    expect(failures).toEqual([]);
  });
});
