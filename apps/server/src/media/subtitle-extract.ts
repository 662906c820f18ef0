/**
 * Text tracks inside a video, converted to WebVTT once per content: one ffmpeg run writes every text track (a film is
 * read once, not once per track), each result is cleaned (subtitle-formats.ts) and kept as a blob. The rows live in
 * media_thumbnails, the table of blobs derived from content, under size "subtitle:<stream index>", so backups, blob
 * migration, reconciliation and the collection of media of deleted content count them with no change of their own.
 */
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { AppContext } from '../context.js';
import { newId } from '../lib/ids.js';
import { addBlobRefs } from '../storage/blobs.repository.js';
import { createLimiter } from './limiter.js';
import { mediaDir, withBlobFile } from './media-blobs.js';
import { INPUT_GUARD, isTransient, mediaTools, runTool } from './media-tools.js';
import { parseSubtitles, toWebVtt } from './subtitle-formats.js';
import type { SubtitleStream } from './subtitle-streams.js';

/** The media_thumbnails size of a track's WebVTT. */
const sizeOf = (index: number) => `subtitle:${index}`;
/** A converted track larger than this is not kept (no real subtitle track comes near it). */
const MAX_VTT_BYTES = 20 * 1024 * 1024;
/** Reading a long film to its end takes a while; the limit bounds a crafted file that never ends. */
const RUN_MS = 10 * 60_000;

const converting = createLimiter(1);
const inFlight = new Map<string, Promise<void>>();

/** The blob of a track's WebVTT, converting the video's text tracks first when not done; null when it could not be. */
export async function embeddedVtt(ctx: AppContext, hash: string, streams: SubtitleStream[], index: number): Promise<string | null> {
  const known = await findVtt(ctx, hash, index);
  if (known !== undefined) return known || null;
  await convertTextTracks(ctx, hash, streams);
  return (await findVtt(ctx, hash, index)) || null;
}

/** Starts (or joins) the conversion of every text track not converted yet; resolves when it ends. */
export function convertTextTracks(ctx: AppContext, hash: string, streams: SubtitleStream[]): Promise<void> {
  let p = inFlight.get(hash);
  if (!p) {
    p = converting(() => convertMissing(ctx, hash, streams)).finally(() => inFlight.delete(hash));
    inFlight.set(hash, p);
  }
  return p;
}

/** '' for a track that could not be converted, undefined for one not tried yet. */
async function findVtt(ctx: AppContext, hash: string, index: number): Promise<string | undefined> {
  const row = await ctx.db.selectFrom('media_thumbnails').select('thumb_hash').where('hash', '=', hash).where('size', '=', sizeOf(index)).executeTakeFirst();
  return row?.thumb_hash;
}

async function convertMissing(ctx: AppContext, hash: string, streams: SubtitleStream[]): Promise<void> {
  const done = new Set(
    (await ctx.db.selectFrom('media_thumbnails').select('size').where('hash', '=', hash).where('size', 'like', 'subtitle:%').execute()).map((r) => r.size),
  );
  const todo = streams.filter((s) => s.kind === 'text' && !done.has(sizeOf(s.index)));
  if (!todo.length) return;
  const dir = mediaDir(ctx, 'tmp', `sub-${newId()}`);
  await mkdir(dir, { recursive: true });
  try {
    await withBlobFile(ctx, hash, async (path) => {
      try {
        await extract(ctx, path, dir, todo);
      } catch (err) {
        if (isTransient(err)) throw err;
        // One unreadable track fails the whole run: convert the tracks one by one, so the others still come through.
        for (const s of todo) await extract(ctx, path, dir, [s]).catch((e: unknown) => {
          if (isTransient(e)) throw e;
        });
      }
    });
    for (const s of todo) await keep(ctx, hash, s.index, join(dir, `${s.index}.vtt`));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One ffmpeg run writing `${index}.vtt` for each stream into `dir`. */
async function extract(ctx: AppContext, path: string, dir: string, streams: SubtitleStream[]): Promise<void> {
  const { ffmpeg } = mediaTools(ctx.config);
  const outputs = streams.flatMap((s) => ['-map', `0:${s.index}`, '-c:s', 'webvtt', '-f', 'webvtt', `file:${join(dir, `${s.index}.vtt`)}`]);
  await runTool(ffmpeg, ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...INPUT_GUARD, '-i', `file:${path}`, ...outputs], { timeoutMs: RUN_MS });
}

/** Cleans one track's output and records it; a track with no output is recorded as not convertible. */
async function keep(ctx: AppContext, hash: string, index: number, path: string): Promise<void> {
  const info = await stat(path).catch(() => null);
  let vtt: Buffer | null = null;
  if (info && info.size <= MAX_VTT_BYTES) {
    const cues = parseSubtitles(await readFile(path, 'utf8'), 'vtt');
    vtt = Buffer.from(toWebVtt(cues), 'utf8');
  }
  const now = ctx.clock.now();
  const blob = vtt ? await ctx.blobs.put(Readable.from([vtt])) : null;
  await ctx.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('media_thumbnails')
      .values({ hash, size: sizeOf(index), thumb_hash: blob?.hash ?? '', mime_type: 'text/vtt', width: 0, height: 0, created_at: now })
      .onConflict((oc) => oc.columns(['hash', 'size']).doNothing())
      .returning('hash')
      .executeTakeFirst();
    if (inserted && blob) await addBlobRefs(trx, blob.hash, blob.size, 1, now);
  });
}
