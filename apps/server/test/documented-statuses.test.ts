/**
 * Routes answer only the statuses they document: a shared file's link answers 416 for a range past the end, as its
 * contract says, and the response check holds error answers without a JSON body (text, bytes, nothing) to the
 * statuses a route documents, as it does JSON ones.
 */
import { Type } from '@sinclair/typebox';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { route, routeErrors } from '@haul/shared';
import { installResponseCheck, serve } from '../src/http/contract.js';
import { installErrorHandlers } from '../src/http/errors.js';
import { startTestHaul, type TestHaul } from './helper.js';

describe("a shared file's download link", () => {
  let h: TestHaul;
  beforeAll(async () => {
    h = await startTestHaul();
  });
  afterAll(() => h.destroy());

  it('answers 416 invalid_argument for a range past the end, which its contract documents', async () => {
    const owner = await h.signUp();
    const file = await h.putFile(owner, '', 'ten.txt', '0123456789');
    const share = await h.api('POST', '/drive/v1/share', owner.access_token, { file_ids: [file.id], share_to: 'publiclink', expiration_days: 1 });
    expect(share.status).toBe(200);
    const info = await h.api('GET', `/drive/v1/share/file_info?share_id=${share.body.share_id}&file_id=${file.id}`);
    const link = new URL(info.body.file_info.web_content_link);
    const url = link.pathname + link.search;

    const part = await h.app.inject({ url, headers: { range: 'bytes=2-4' } });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('234');
    // The response check (on in tests) turns an undocumented answer into a 500 contract breach.
    const past = await h.app.inject({ url, headers: { range: 'bytes=50-60' } });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe('bytes */10');
    expect(past.json().error).toBe('invalid_argument');
  });
});

describe('the response check', () => {
  const def = route({
    method: 'GET',
    path: '/probe/:how',
    tag: 'Probe',
    summary: 'Probe',
    description: 'A route for this test only.',
    auth: 'public',
    params: Type.Object({ how: Type.String() }),
    response: { raw: true, types: ['text/plain'], description: 'Text.' },
    errors: { file_not_found: 'Never for "found".' },
  });
  const probe = async () => {
    const app = Fastify({ logger: false });
    installErrorHandlers(app);
    installResponseCheck(app);
    serve(app, def, async (req, reply) => {
      // Error answers that are not JSON objects, as a raw route might send them.
      if (req.params.how === 'text-416') return reply.status(416).header('Content-Type', 'text/plain').send('bad range');
      if (req.params.how === 'empty-416') return reply.status(416).send();
      if (req.params.how === 'text-404') return reply.status(404).header('Content-Type', 'text/plain').send('gone');
      return reply.header('Content-Type', 'text/plain').send('found');
    });
    return app;
  };

  it('flags an error status the route does not document, whatever the body', async () => {
    expect(routeErrors(def).has(416)).toBe(false);
    const app = await probe();
    for (const how of ['text-416', 'empty-416']) {
      const res = await app.inject({ url: `/probe/${how}` });
      expect(res.statusCode, how).toBe(500);
      expect(res.json().error_description, how).toMatch(/Contract breach: GET \/probe\/:how answered 416, which it does not document/);
    }
    // A documented status and a success pass as they are.
    expect((await app.inject({ url: '/probe/text-404' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/probe/found' })).body).toBe('found');
    await app.close();
  });
});
