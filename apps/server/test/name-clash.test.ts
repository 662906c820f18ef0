/** Name clashes on upload: finding the names taken in a folder, and an upload that replaces the file it clashes with. */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { contentHashOf } from '../src/storage/content-hash.js';
import { mkdir, names, startTestHaul, type TestHaul } from './helper.js';

describe('name clashes', () => {
  let h: TestHaul;
  let t: TokenResponse;

  const clashes = (tok: string, body: unknown) => h.api('POST', '/drive/v1/files:nameClashes', tok, body);
  const create = (body: object) =>
    h.api('POST', '/drive/v1/files', t.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', ...body });
  /** Sends every byte in one PATCH; the last byte places the file. */
  const sendAll = (key: string, content: Buffer) =>
    h.app.inject({
      method: 'PATCH',
      url: `/drive/v1/uploads/${key}`,
      headers: { authorization: `Bearer ${t.access_token}`, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      payload: content,
    });
  const listTrash = async () =>
    (await h.api('GET', `/drive/v1/files?parent_id=*&filters=${encodeURIComponent('{"trashed":{"eq":true}}')}`, t.access_token)).body.files as { id: string; name: string }[];
  const contentOf = async (parentId: string, name: string) => {
    const list = (await h.api('GET', `/drive/v1/files?parent_id=${parentId}`, t.access_token)).body.files as { id: string; name: string }[];
    const file = (await h.api('GET', `/drive/v1/files/${list.find((f) => f.name === name)!.id}`, t.access_token)).body;
    return (await h.api('GET', file.web_content_link.replace('http://haul.test', ''))).raw;
  };

  beforeAll(async () => {
    h = await startTestHaul();
    t = await h.signUp();
  });
  afterAll(() => h.destroy().catch(() => undefined));

  it('names the live items that hold the asked names, files and folders, and not trashed ones', async () => {
    const folder = await mkdir(h, t.access_token, 'Clash');
    const a = await h.putFile(t, folder, 'a.jpg', 'a');
    await mkdir(h, t.access_token, 'Photos', folder);
    const gone = await h.putFile(t, folder, 'gone.txt', 'g');
    expect((await h.api('POST', '/drive/v1/files:batchTrash', t.access_token, { ids: [gone.id] })).status).toBe(200);
    const res = await clashes(t.access_token, { parent_id: folder, names: ['a.jpg', 'Photos', 'gone.txt', 'new.png', 'a.jpg'] });
    expect(res.status).toBe(200);
    const found = (res.body.clashes as { name: string; kind: string; id: string }[]).sort((x, y) => y.kind.localeCompare(x.kind));
    expect(found).toEqual([
      { name: 'Photos', kind: 'drive#folder', id: expect.any(String) },
      { name: 'a.jpg', kind: 'drive#file', id: a.id },
    ]);
    // The top level works too.
    await h.putFile(t, '', 'top.txt', 'x');
    expect((await clashes(t.access_token, { parent_id: '', names: ['top.txt'] })).body.clashes).toHaveLength(1);
  });

  it("answers another user's folder like a missing one, a trashed folder with its error, and bad input with 400", async () => {
    const folder = await mkdir(h, t.access_token, 'Mine');
    const other = await h.signUp();
    const theirs = await clashes(other.access_token, { parent_id: folder, names: ['x'] });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ error: 'file_not_found' });
    const missing = await clashes(t.access_token, { parent_id: 'AAAAAAAAAAAAAAAAAAAA', names: ['x'] });
    expect(missing.body).toEqual(theirs.body);
    expect((await h.api('POST', '/drive/v1/files:batchTrash', t.access_token, { ids: [folder] })).status).toBe(200);
    expect((await clashes(t.access_token, { parent_id: folder, names: ['x'] })).body).toMatchObject({ error: 'file_in_recycle_bin' });
    for (const body of [{ parent_id: '', names: [] }, { parent_id: '', names: 'a.jpg' }, { names: ['a'] }, { parent_id: '', names: [''] }]) {
      const res = await clashes(t.access_token, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'invalid_argument' });
    }
  });

  it('replaces over tus: the old file goes to the trash and the new one takes its name; restored, the old one gets a suffix', async () => {
    const folder = await mkdir(h, t.access_token, 'Replace');
    const old = await h.putFile(t, folder, 'b.jpg', 'old bytes');
    const content = randomBytes(50_000);
    const res = await create({ parent_id: folder, name: 'b.jpg', size: content.length, replace: true });
    expect(res.status).toBe(200);
    // Nothing changes until the last byte arrives.
    expect(await names(h, t.access_token, folder)).toEqual(['b.jpg']);
    expect((await sendAll(res.body.resumable.params.key, content)).statusCode).toBe(204);
    expect(await names(h, t.access_token, folder)).toEqual(['b.jpg']);
    expect(Buffer.compare(await contentOf(folder, 'b.jpg'), content)).toBe(0);
    expect((await listTrash()).map((f) => f.id)).toContain(old.id);
    expect((await h.api('POST', '/drive/v1/files:batchUntrash', t.access_token, { ids: [old.id] })).status).toBe(200);
    expect((await names(h, t.access_token, folder)).sort()).toEqual(['b (1).jpg', 'b.jpg']);
  });

  it('replaces on an instant upload too, and without replace keeps both', async () => {
    const folder = await mkdir(h, t.access_token, 'Instant');
    const bytes = randomBytes(3000);
    const hash = await contentHashOf(bytes);
    await h.putFile(t, '', 'source.bin', bytes);
    const old = await h.putFile(t, folder, 'c.bin', 'older');
    const first = await create({ parent_id: folder, name: 'c.bin', size: bytes.length, hash, replace: true });
    const ranges = first.body.proof_of_possession.ranges as { start: number; end: number }[];
    const answer = await contentHashOf(Buffer.concat(ranges.map((r) => bytes.subarray(r.start, r.end))));
    const done = await create({ parent_id: folder, name: 'c.bin', size: bytes.length, hash, replace: true, proof: { challenge: first.body.proof_of_possession.challenge, answer } });
    expect(done.body.file).toMatchObject({ name: 'c.bin', hash });
    expect((await listTrash()).map((f) => f.id)).toContain(old.id);
    // Keep both: today's suffix.
    const again = await create({ parent_id: folder, name: 'c.bin', size: 10 });
    expect((await sendAll(again.body.resumable.params.key, randomBytes(10))).statusCode).toBe(204);
    expect((await names(h, t.access_token, folder)).sort()).toEqual(['c (1).bin', 'c.bin']);
  });

  it('does not replace a folder: the file takes a suffix beside it', async () => {
    const folder = await mkdir(h, t.access_token, 'FolderClash');
    const sub = await mkdir(h, t.access_token, 'notes', folder);
    const res = await create({ parent_id: folder, name: 'notes', size: 5, replace: true });
    expect((await sendAll(res.body.resumable.params.key, randomBytes(5))).statusCode).toBe(204);
    expect((await names(h, t.access_token, folder)).sort()).toEqual(['notes', 'notes (1)']);
    expect((await listTrash()).map((f) => f.id)).not.toContain(sub);
  });

  it('refuses a replace that is not true or false, creating nothing', async () => {
    const folder = await mkdir(h, t.access_token, 'BadReplace');
    await h.putFile(t, folder, 'd.txt', 'd');
    const res = await create({ parent_id: folder, name: 'd.txt', size: 5, replace: 'yes' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_argument' });
    expect(await names(h, t.access_token, folder)).toEqual(['d.txt']);
  });
});
