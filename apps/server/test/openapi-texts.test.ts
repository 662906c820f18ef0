/**
 * The API reference document is written once (src/http/openapi.ts) and answered at three addresses, as JSON and as
 * YAML: each answer is the same document, with the servers entry of the address the reader used.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHaul, type TestHaul } from './helper.js';

describe('the API reference document', () => {
  let h: TestHaul;
  beforeAll(async () => {
    // Unpinned: links (and servers) follow the Host the request came with.
    h = await startTestHaul({ publicUrlPinned: false });
  });
  afterAll(() => h.destroy());

  it('answers the same document at each address, each time with the servers entry of the address used', async () => {
    const get = (url: string, host: string) => h.app.inject({ method: 'GET', url, headers: { host } });
    let json: Record<string, unknown> | null = null;
    let yaml: string | null = null;
    for (const host of ['drive.example', 'other.example:8443', 'drive.example']) {
      for (const url of ['/api/openapi.json', '/api/docs/json']) {
        const res = await get(url, host);
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-type'], url).toMatch(/^application\/json/);
        const { servers, ...doc } = JSON.parse(res.body);
        expect(servers, `${url} on ${host}`).toEqual([{ url: `http://${host}` }]);
        json ??= doc;
        expect(doc, url).toEqual(json);
      }
      const res = await get('/api/docs/yaml', host);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/x-yaml/);
      // The servers entry is the last key (quoted or not, the same string).
      const end = /\nservers:\n {2}- url: ("?)(.+)\1\n$/.exec(res.body);
      expect(end?.[2], res.body.slice(-200)).toBe(`http://${host}`);
      yaml ??= res.body.slice(0, end!.index);
      expect(res.body.slice(0, end!.index)).toBe(yaml);
    }
    expect(json).toMatchObject({ openapi: '3.1.0', info: { title: 'Haul API' } });
    const paths = Object.keys((json as { paths: object }).paths);
    expect(paths.length).toBeGreaterThan(100);
    // The YAML is the same document: its first line, and every path in it.
    expect(yaml!.startsWith('openapi: 3.1.0\n')).toBe(true);
    for (const p of paths) expect(yaml, p).toContain(`\n  ${p}:\n`);
    expect(yaml).not.toMatch(/^servers:/m);
  });
});
