/** Blob bytes for media work: a local path to hand ffmpeg, derived files moved into the store, ranges served. */
import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import rangeParser from 'range-parser';
import { errorBody } from '@haul/shared';
import type { AppContext } from '../context.js';
import { newId } from '../lib/ids.js';
import { createContentHasher } from '../storage/content-hash.js';
import { LocalBlobStore } from '../storage/local-blob-store.js';
import { MediaToolError } from './media-tools.js';

/** Folder of media work under the data dir: scratch space of transcodes and local copies of remote blobs. */
export function mediaDir(ctx: AppContext, ...parts: string[]): string {
  return join(ctx.config.dataDir, 'media', ...parts);
}

/**
 * Runs `fn` with an absolute path of the blob's bytes: the stored file itself on the local store (never written to),
 * or a temporary copy for a store elsewhere.
 */
export async function withBlobFile<T>(ctx: AppContext, hash: string, fn: (path: string) => Promise<T>): Promise<T> {
  // Missing bytes are the server's trouble, not the content's: a passing error, never remembered as "unreadable".
  if (!(await ctx.blobs.has(hash))) throw new MediaToolError('The file is not available right now.');
  if (ctx.blobs instanceof LocalBlobStore) return fn(ctx.blobs.pathOf(hash));
  const dir = mediaDir(ctx, 'tmp');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${newId()}.src`);
  try {
    await pipeline(ctx.blobs.read(hash), createWriteStream(path));
    return await fn(path);
  } finally {
    await rm(path, { force: true });
  }
}

/** Hashes a finished local file and moves it into the blob store. */
export async function adoptFile(ctx: AppContext, path: string): Promise<string> {
  const h = await createContentHasher();
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) h.update(chunk as Buffer);
  const hash = h.digest();
  await ctx.blobs.adopt(path, hash);
  return hash;
}

/** Sends a blob (or a local file) inline with Range support; the caller has set type and caching headers. */
export function sendBytes(
  req: FastifyRequest,
  reply: FastifyReply,
  size: number,
  etag: string,
  open: (range?: { start: number; end: number }) => NodeJS.ReadableStream,
) {
  reply.header('ETag', etag).header('Accept-Ranges', 'bytes').header('X-Content-Type-Options', 'nosniff');
  if (req.headers['if-none-match'] === etag) return reply.status(304).send();
  const rangeHeader = req.headers.range;
  const ifRange = req.headers['if-range'];
  if (rangeHeader && (!ifRange || ifRange === etag) && size > 0) {
    const ranges = rangeParser(size, rangeHeader, { combine: true });
    if (ranges === -1) {
      return reply
        .status(416)
        .header('Content-Range', `bytes */${size}`)
        .header('Content-Type', 'application/json; charset=utf-8')
        .send(errorBody('invalid_argument', 'The requested range is not satisfiable.'));
    }
    if (ranges !== -2 && ranges.type === 'bytes' && ranges.length === 1) {
      const { start, end } = ranges[0]!;
      reply.status(206).header('Content-Range', `bytes ${start}-${end}/${size}`).header('Content-Length', end - start + 1);
      return reply.send(open({ start, end }));
    }
  }
  reply.header('Content-Length', size);
  if (size === 0) return reply.send('');
  return reply.send(open());
}

/** A local file as a read stream, for sendBytes. */
export function fileOpener(path: string) {
  return (range?: { start: number; end: number }) => createReadStream(path, range ?? {});
}
