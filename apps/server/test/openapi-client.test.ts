/**
 * A client generated from the OpenAPI document by tools nobody here wrote (openapi-typescript for the types,
 * openapi-fetch for the calls) works end to end against a real server on 127.0.0.1: it signs in, creates an upload,
 * sends its bytes through the documented tus paths (OPTIONS, HEAD, PATCH, DELETE) and finds the file in the listing.
 * The program is type-checked against the generated types first, so a path or header the document gets wrong fails
 * there as well as on the wire.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHaul, type TestHaul } from './helper.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

/** What the generated client does; it prints what it saw as one JSON line. */
const FLOW = `import createClient from 'openapi-fetch';
import type { paths } from './haul-api.js';

const [baseUrl, username, password] = process.argv.slice(2) as [string, string, string];
const seen: Record<string, unknown> = {};
const api = createClient<paths>({ baseUrl });

const signedIn = await api.POST('/v1/auth/signin', { body: { username, password } });
api.use({ onRequest: ({ request }) => (request.headers.set('Authorization', 'Bearer ' + signedIn.data!.access_token), request) });

// tus bodies are bytes, sent as they are rather than as JSON.
const bytes = { bodySerializer: (body: string) => body, headers: { 'Content-Type': 'application/offset+octet-stream' } };
const tus = { 'Tus-Resumable': '1.0.0' } as const;
const content = 'hello, tus!';

const created = await api.POST('/drive/v1/files', {
  body: { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', parent_id: '', name: 'generated.txt', size: String(content.length) },
});
const path = { upload_id: created.data!.resumable!.params.key };
seen.uploadUrlEndsWithKey = created.data!.resumable!.params.upload_url.endsWith('/drive/v1/uploads/' + path.upload_id);

const options = await api.OPTIONS('/drive/v1/uploads/{upload_id}', { params: { path } });
seen.options = [options.response.status, options.response.headers.get('Tus-Version')];
const refused = await api.POST('/drive/v1/uploads', { params: { header: { ...tus, 'Upload-Length': '5' } } });
seen.creation = [refused.response.status, refused.error?.error];

const before = await api.HEAD('/drive/v1/uploads/{upload_id}', { params: { path, header: tus } });
seen.headBefore = [before.response.status, before.response.headers.get('Upload-Offset'), before.response.headers.get('Upload-Length')];
const first = await api.PATCH('/drive/v1/uploads/{upload_id}', { params: { path, header: { ...tus, 'Upload-Offset': '0' } }, body: content.slice(0, 6), ...bytes });
seen.firstPatch = [first.response.status, first.response.headers.get('Upload-Offset')];
const stale = await api.PATCH('/drive/v1/uploads/{upload_id}', { params: { path, header: { ...tus, 'Upload-Offset': '0' } }, body: content.slice(0, 6), ...bytes });
seen.stalePatch = [stale.response.status, stale.error?.error];
const middle = await api.HEAD('/drive/v1/uploads/{upload_id}', { params: { path, header: tus } });
seen.headMiddle = [middle.response.status, middle.response.headers.get('Upload-Offset')];
const last = await api.PATCH('/drive/v1/uploads/{upload_id}', { params: { path, header: { ...tus, 'Upload-Offset': '6' } }, body: content.slice(6), ...bytes });
seen.lastPatch = [last.response.status, last.response.headers.get('Upload-Offset'), Boolean(last.response.headers.get('Haul-File-Id'))];

const dropped = await api.POST('/drive/v1/files', { body: { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', parent_id: '', name: 'dropped.txt', size: '3' } });
const droppedPath = { upload_id: dropped.data!.resumable!.params.key };
const deleted = await api.DELETE('/drive/v1/uploads/{upload_id}', { params: { path: droppedPath, header: tus } });
const afterDelete = await api.HEAD('/drive/v1/uploads/{upload_id}', { params: { path: droppedPath, header: tus } });
seen.termination = [deleted.response.status, afterDelete.response.status];

const listed = await api.GET('/drive/v1/files', { params: { query: { parent_id: '' } } });
const file = listed.data!.files.find((f) => f.name === 'generated.txt');
seen.listed = file && { name: file.name, size: file.size, placedAs: file.id === last.response.headers.get('Haul-File-Id') };
console.log(JSON.stringify(seen));
`;

describe('a client generated from the OpenAPI document', () => {
  let h: TestHaul;
  let base: string;
  let dir: string;
  beforeAll(async () => {
    h = await startTestHaul();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
    dir = mkdtempSync(join(tmpdir(), 'haul-openapi-client-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await h.destroy();
  });

  it('type-checks against the generated types and uploads through the documented tus paths', async () => {
    const doc = await (await fetch(`${base}/api/openapi.json`)).json();
    writeFileSync(join(dir, 'haul-api.d.ts'), astToString(await openapiTS(doc)));
    writeFileSync(join(dir, 'flow.ts'), FLOW);
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
    // The program resolves openapi-fetch, tsx and @types/node from the workspace's packages.
    symlinkSync(dirname(dirname(require.resolve('openapi-fetch/package.json'))), join(dir, 'node_modules'), 'dir');

    const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
    const flags = ['--noEmit', '--strict', '--skipLibCheck', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node'];
    const checked = await run(process.execPath, [tsc, ...flags, 'flow.ts'], { cwd: dir }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? String(err) }));
    expect(checked.stdout, 'the generated client does not type-check').toBe('');

    const email = `generated${Date.now()}@example.com`;
    await h.signUp(email, 'correct horse battery');
    const ran = await run(process.execPath, ['--import', 'tsx', 'flow.ts', base, email, 'correct horse battery'], { cwd: dir });
    expect(JSON.parse(ran.stdout.trim().split('\n').pop()!)).toEqual({
      uploadUrlEndsWithKey: true,
      options: [204, '1.0.0'],
      creation: [404, 'file_not_found'],
      headBefore: [200, '0', '11'],
      firstPatch: [204, '6'],
      stalePatch: [409, 'failed_precondition'],
      headMiddle: [200, '6'],
      lastPatch: [204, '11', true],
      termination: [204, 404],
      listed: { name: 'generated.txt', size: '11', placedAs: true },
    });
  }, 120_000);
});
