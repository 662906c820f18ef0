/**
 * The contract holds: every API route is registered from packages/shared's contract (schemas for what it takes and
 * answers, a summary and a description, errors from the catalogue), the OpenAPI document shows each one, the reference
 * page is served from our origin, and answers are serialised (and, in tests, checked) from their schema.
 */
import { Type } from '@sinclair/typebox';
import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT, docPath, ERROR_CODES, isRaw, route, routeErrors, takesBearer, type RouteDef } from '@haul/shared';
import { installResponseCheck, serve } from '../src/http/contract.js';
import { installErrorHandlers, notFound } from '../src/http/errors.js';
import { startTestHaul, type TestHaul } from './helper.js';

/** Routes that are not API calls, each with why. */
const NOT_API: Record<string, string> = {
  'GET /': 'redirect to the web app',
  'GET /api/openapi.json': 'the document itself',
  // Operations (ops/): plain probes and Prometheus's text format, for machines rather than API clients.
  'GET /healthz': 'liveness probe',
  'GET /readyz': 'readiness probe',
  'GET /metrics': 'Prometheus metrics',
};
const isDocs = (url: string) => url === '/api/docs' || url.startsWith('/api/docs/');
/** WebDAV (RFC 4918) at /dav/: not JSON calls, so outside the contract; test/webdav*.test.ts cover it with real clients. */
const isDav = (url: string) => url === '/dav' || url === '/dav/*';

let h: TestHaul;
beforeAll(async () => {
  h = await startTestHaul();
});
afterAll(() => h.destroy());

describe('the route table', () => {
  it('registers every route from the contract, with schemas, a summary and a description', () => {
    const bare: string[] = [];
    for (const r of h.routes) {
      const key = `${r.method} ${r.url}`;
      if (NOT_API[key] || isDocs(r.url) || isDav(r.url)) continue;
      if (!r.contract) {
        bare.push(key);
        continue;
      }
      const def = r.contract;
      expect(Object.values(CONTRACT), `${key} is registered from an entry of CONTRACT`).toContain(def);
      expect(`${def.method} ${def.path}`).toBe(key);
      expect(def.summary.length, `${key} summary`).toBeGreaterThan(3);
      expect(def.description.length, `${key} description`).toBeGreaterThan(10);
      expect(def.response, `${key} answer schema`).toBeTruthy();
      const schema = r.schema as { response?: Record<string, unknown> };
      expect(schema.response?.[String(def.status ?? 200)], `${key} success answer`).toBeTruthy();
      // What it takes: every path parameter has a schema.
      if (/:\w|\*/.test(def.path.replace(/::/g, ''))) expect(def.params, `${key} path parameters`).toBeTruthy();
    }
    expect(bare, 'routes registered without the contract').toEqual([]);
  });

  it('registers every contract entry, exactly once', () => {
    const registered = h.routes.filter((r) => r.contract).map((r) => r.contract);
    for (const [name, def] of Object.entries(CONTRACT)) expect(registered.filter((d) => d === def).length, name).toBe(1);
  });

  it('documents only errors of the catalogue, each with its status and when it happens', () => {
    for (const [name, def] of Object.entries(CONTRACT) as [string, RouteDef][]) {
      const errors = routeErrors(def);
      for (const [status, names] of errors) {
        expect(status, name).toBeGreaterThanOrEqual(400);
        for (const [error, when] of names) {
          expect(Object.keys(ERROR_CODES), `${name}: ${error}`).toContain(error);
          expect(when.length, `${name}: when ${error}`).toBeGreaterThan(5);
        }
      }
      if (def.auth === 'user' || def.auth === 'admin') expect(errors.get(401)?.has('unauthenticated'), name).toBe(true);
    }
  });
});

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 and shows every route with its auth, answers and errors', async () => {
    const res = await h.api('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? [], 'OpenAPI validation errors').toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.servers[0].url).toBe('http://haul.test');
    for (const [name, def] of Object.entries(CONTRACT) as [string, RouteDef][]) {
      const op = doc.paths[docPath(def)]?.[def.method.toLowerCase()];
      expect(op, `${name}: ${def.method} ${def.path}`).toBeTruthy();
      expect(op.operationId).toBe(name);
      expect(op.summary).toBe(def.summary);
      expect(op.description).toBe(def.description);
      expect(op.security).toEqual(takesBearer(def.auth) ? [{ bearer: [] }] : []);
      expect(op.responses[String(def.status ?? 200)], name).toBeTruthy();
      for (const [status, names] of routeErrors(def)) {
        const answer = op.responses[String(status)];
        expect(answer?.content?.['application/json']?.schema?.required, `${name} ${status}`).toContain('error_code');
        for (const error of names.keys()) expect(answer.description, `${name} ${status}`).toContain(`\`${error}\``);
      }
      if (isRaw(def.response)) for (const t of def.response.types) expect(Object.keys(op.responses[String(def.status ?? 200)].content), name).toContain(t);
    }
    // The catalogue is in the document's introduction.
    for (const error of Object.keys(ERROR_CODES)) expect(doc.info.description).toContain(`\`${error}\``);
    // An example body a reader can copy.
    expect(doc.paths['/drive/v1/files'].post.requestBody.content['application/json'].example).toEqual(CONTRACT.createFile.example);
  });

  it('has a reference page served from our own origin, with nothing from elsewhere', async () => {
    const page = await h.api('GET', '/api/docs/');
    expect(page.status).toBe(200);
    const html = page.raw.toString();
    expect(html).toContain('swagger-ui-bundle.js');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    const script = await h.api('GET', '/api/docs/static/swagger-ui-bundle.js');
    expect(script.status).toBe(200);
    expect(script.raw.length).toBeGreaterThan(100_000);
    const initializer = await h.api('GET', '/api/docs/static/swagger-initializer.js');
    expect(initializer.raw.toString()).toContain('./json');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
  });
});

describe('answers', () => {
  const def = route({
    method: 'GET',
    path: '/probe/:id',
    tag: 'Probe',
    summary: 'Probe',
    description: 'A route for this test only.',
    auth: 'public',
    params: Type.Object({ id: Type.String() }),
    response: Type.Object({ name: Type.String() }),
    errors: { file_not_found: 'Never for "found".' },
  });
  const probe = async (checked: boolean) => {
    const app = Fastify({ logger: false });
    installErrorHandlers(app);
    if (checked) installResponseCheck(app);
    serve(app, def, async (req) => {
      if (req.params.id === 'missing') throw notFound();
      if (req.params.id === 'denied') throw Object.assign(new Error('no'), { statusCode: 418 });
      // A field the contract does not name, as a presenter that leaks would add it.
      return { name: 'shown', pass_code: 'secret' } as { name: string };
    });
    return app;
  };

  it('are serialised from their schema: a field the contract does not name is never sent', async () => {
    const app = await probe(false);
    const res = await app.inject({ url: '/probe/found' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: 'shown' });
    expect(res.body).not.toContain('secret');
    await app.close();
  });

  it('are checked in tests: an extra field or an undocumented error is a breach', async () => {
    const app = await probe(true);
    const extra = await app.inject({ url: '/probe/found' });
    expect(extra.statusCode).toBe(500);
    expect(extra.json().error_description).toMatch(/Contract breach: GET \/probe\/:id answered outside its schema/);
    const documented = await app.inject({ url: '/probe/missing' });
    expect(documented.statusCode).toBe(404);
    expect(documented.json().error).toBe('file_not_found');
    const undocumented = await app.inject({ url: '/probe/denied' });
    expect(undocumented.statusCode).toBe(500);
    expect(undocumented.json().error_description).toMatch(/answered 418 invalid_argument, which it does not document/);
    await app.close();
  });
});
