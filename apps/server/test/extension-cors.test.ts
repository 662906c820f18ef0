/**
 * CORS for the browser extension (src/http/extension-cors.ts): an extension's origin gets preflights answered and its
 * origin named on API answers, refusals included; never credentials; web origins, admin routes and pages get nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHaul, type TestHaul } from './helper.js';

const EXT = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
let haul: TestHaul;
beforeAll(async () => {
  haul = await startTestHaul();
});
afterAll(() => haul?.destroy());

const preflight = (url: string, origin: string) =>
  haul.app.inject({
    method: 'OPTIONS',
    url,
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
  });

describe('extension CORS', () => {
  it('answers the preflight of a contract route for an extension origin, without credentials', async () => {
    for (const url of ['/v1/auth/device/code', '/drive/v1/files', '/drive/v1/tasks/abc', '/v1/user/sessions:end']) {
      const res = await preflight(url, EXT);
      expect(res.statusCode, url).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(EXT);
      expect(res.headers['access-control-allow-headers']).toMatch(/Authorization/);
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
    expect((await preflight('/drive/v1/files', 'moz-extension://0c8a3b0e-5f3e-4c55-9d4e-8e7a4c2f1b6d')).statusCode).toBe(204);
  });

  it('names the extension origin on answers and on refusals', async () => {
    const { access_token } = await haul.signUp();
    const ok = await haul.app.inject({ method: 'GET', url: '/drive/v1/tasks?type=offline', headers: { origin: EXT, authorization: `Bearer ${access_token}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(EXT);
    const refused = await haul.app.inject({ method: 'GET', url: '/drive/v1/tasks?type=offline', headers: { origin: EXT } });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(EXT);
  });

  it('opens nothing to web origins, and no admin route, upload or page to extensions', async () => {
    const web = await preflight('/drive/v1/files', 'https://evil.example');
    expect(web.headers['access-control-allow-origin']).toBeUndefined();
    expect(web.statusCode).not.toBe(204);
    const page = await haul.app.inject({ method: 'GET', url: '/drive/all', headers: { origin: EXT } });
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
    expect((await preflight('/admin/v1/users', EXT)).headers['access-control-allow-origin']).toBeUndefined();
    const unknown = await preflight('/v1/no/such/route', EXT);
    expect(unknown.headers['access-control-allow-origin']).toBeUndefined();
  });
});
