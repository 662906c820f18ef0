import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Upload } from '@tus/utils';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalBlobStore } from '../storage/local-blob-store.js';
import { HashingFileStore } from './hashing-file-store.js';

/** A PATCH body repeated at the end of an upload while the first request finishes it: what the store answers. */
describe('HashingFileStore, a final PATCH repeated while the upload is placed', () => {
  const root = mkdtempSync(join(tmpdir(), 'haul-upload-store-'));
  const blobs = new LocalBlobStore(join(root, 'blobs'));
  const sut = new HashingFileStore(join(root, 'uploads'), blobs);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const written = async (id: string) => {
    const bytes = randomBytes(64 * 1024);
    await sut.create(new Upload({ id, size: bytes.length, offset: 0 }));
    expect(await sut.write(Readable.from([bytes]), id, 0)).toBe(bytes.length);
    return bytes.length;
  };
  /** The tus status a store error answers with (500 for anything that is not a tus answer). */
  const statusOf = (err: unknown) => (err as { status_code?: number }).status_code ?? 500;
  const repeat = (id: string, size: number) => sut.write(Readable.from([]), id, size).then(() => 204, statusOf);

  it('adds nothing and answers at once while the bytes are still in the upload folder', async () => {
    const size = await written('still-there');
    expect(await repeat('still-there', size)).toBe(204);
  });

  it('answers gone (410), not a fault, once the bytes have moved into the blob store', async () => {
    const size = await written('moved');
    await sut.moveToBlobs('moved', await sut.digest('moved', size));
    expect(await repeat('moved', size)).toBe(410);
  });

  it('answers not found (404), not a fault, once the upload is forgotten', async () => {
    const size = await written('forgotten');
    await sut.forget('forgotten');
    expect(await repeat('forgotten', size)).toBe(404);
  });
});
