import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { mkdir, startTestHaul, type TestHaul } from './helper.js';

describe('bad input', () => {
  let h: TestHaul;
  let t: TokenResponse;
  let folder: string;
  beforeAll(async () => {
    h = await startTestHaul();
    t = await h.signUp();
    folder = await mkdir(h, t.access_token, 'Keep');
  });
  afterAll(() => h.destroy());

  const rows = () => h.ctx.db.selectFrom('files').selectAll().orderBy('id').execute();

  it('answers malformed JSON, wrong types and oversize values with 400 and the error object, changing nothing', async () => {
    const before = await rows();
    const tok = t.access_token;
    const cases: [string, string, unknown][] = [
      ['POST', '/drive/v1/files', '{"kind": "drive#folder", "name": '],
      ['POST', '/drive/v1/files', { kind: 'drive#folder' }],
      ['POST', '/drive/v1/files', { kind: 'drive#folder', name: 42 }],
      ['POST', '/drive/v1/files', { kind: 'drive#file', name: 'x.txt' }],
      ['POST', '/drive/v1/files', { kind: 'drive#folder', name: 'x'.repeat(2000) }],
      ['PATCH', `/drive/v1/files/${folder}`, { name: ['a'] }],
      ['PATCH', `/drive/v1/files/${folder}`, { star: 'maybe' }],
      ['POST', '/drive/v1/files:batchTrash', { ids: [] }],
      ['POST', '/drive/v1/files:batchTrash', { ids: 'abc' }],
      ['POST', '/drive/v1/files:batchTrash', { ids: Array.from({ length: 1001 }, (_, i) => `id${i}`) }],
      ['POST', '/drive/v1/files:batchMove', { ids: [folder] }],
      ['POST', '/drive/v1/files:batchMove', { ids: [folder], to: { parent_id: 7 } }],
      ['POST', '/drive/v1/events', { event: { type: 'TYPE_PLAY' } }],
      ['POST', '/drive/v1/events', { event: { type: 'TYPE_PLAY', file_id: folder, params: { n: 5 } } }],
      ['POST', '/v1/auth/signin', { username: 'a@b.co' }],
      ['POST', '/v1/auth/token', { grant_type: 'password', refresh_token: 'x' }],
    ];
    for (const [method, url, body] of cases) {
      const res = await h.api(method, url, tok, body);
      expect(res.status, `${method} ${url} ${JSON.stringify(body).slice(0, 80)}`).toBe(400);
      expect(Object.keys(res.body).sort()).toEqual(['details', 'error', 'error_code', 'error_description', 'error_uri']);
      expect(res.body.error_description.length).toBeGreaterThan(5);
    }
    expect(await rows()).toEqual(before);
  });

  it('answers oversize bodies with 413 and unknown endpoints with 404, both as the error object', async () => {
    // Over the 8 MB that file creation takes (room for a .torrent file).
    const huge = JSON.stringify({ kind: 'drive#folder', name: 'x', pad: 'y'.repeat(9 * 1024 * 1024) });
    const big = await h.api('POST', '/drive/v1/files', t.access_token, huge);
    expect(big.status).toBe(413);
    expect(big.body.error).toBe('payload_too_large');
    const none = await h.api('GET', '/drive/v1/nothing-here', t.access_token);
    expect(none.status).toBe(404);
    expect(none.body.error).toBe('not_found');
  });

  it('needs a token everywhere but sign-up, sign-in, refresh and download links', async () => {
    for (const [method, url] of [
      ['GET', '/drive/v1/files'],
      ['GET', `/drive/v1/files/${folder}`],
      ['POST', '/drive/v1/files'],
      ['PATCH', `/drive/v1/files/${folder}`],
      ['POST', '/drive/v1/files:batchDelete'],
      ['PATCH', '/drive/v1/files/trash:empty'],
      ['GET', '/drive/v1/events'],
      ['GET', '/drive/v1/about'],
      ['GET', '/v1/user/me'],
    ] as const) {
      const res = await h.api(method, url, undefined, method === 'GET' ? undefined : {});
      expect(res.status, `${method} ${url}`).toBe(401);
      expect(res.body.error).toBe('unauthenticated');
    }
  });
});
