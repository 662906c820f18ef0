/**
 * Image subtitle tracks (PGS, VobSub, DVB) drawn into the picture: one MP4 (H.264 + AAC, at most 720 lines high) per
 * content and track, made on first request and kept as a blob in media_thumbnails under size "burn:<stream index>",
 * as the WebVTT of text tracks is (subtitle-extract.ts), so backups, blob migration, reconciliation and the clean-up
 * of media of deleted content count it with no table of its own. One burn-in runs at a time per process.
 */
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppContext } from '../context.js';
import { newId } from '../lib/ids.js';
import { addBlobRefs, findBlob } from '../storage/blobs.repository.js';
import { timeLimitMs } from './hls-transcode.js';
import { createLimiter } from './limiter.js';
import { adoptFile, mediaDir, withBlobFile } from './media-blobs.js';
import { INPUT_GUARD, isTransient, MediaToolError, mediaTools, runTool } from './media-tools.js';
import { AUDIO_BITS } from './playback.policy.js';

/** The media_thumbnails size of a track's burn-in. */
const sizeOf = (index: number) => `burn:${index}`;
/** The burn-in is one quality: the source's height, capped here. */
const MAX_HEIGHT = 720;

export type BurnStatus = { state: 'ready'; blob: string } | { state: 'running' } | { state: 'failed'; message: string } | { state: 'none' };

const burning = createLimiter(1);
const inFlight = new Map<string, Promise<void>>();
/** Passing failures (a missing tool, a time-out), told once to the next caller, who may then try again. */
const passing = new Map<string, string>();
const keyOf = (hash: string, index: number) => `${hash}:${index}`;

/** Where the burn-in of this content's track stands, without starting anything. */
export async function burnStatus(ctx: AppContext, hash: string, index: number): Promise<BurnStatus> {
  const row = await ctx.db.selectFrom('media_thumbnails').select('thumb_hash').where('hash', '=', hash).where('size', '=', sizeOf(index)).executeTakeFirst();
  if (row) return row.thumb_hash ? { state: 'ready', blob: row.thumb_hash } : { state: 'failed', message: 'This subtitle track could not be drawn into the video.' };
  if (inFlight.has(keyOf(hash, index))) return { state: 'running' };
  const message = passing.get(keyOf(hash, index));
  if (message !== undefined) {
    passing.delete(keyOf(hash, index));
    return { state: 'failed', message };
  }
  return { state: 'none' };
}

/** Starts (or joins) the burn-in of a track; `duration` (seconds) bounds the run. Resolves when it ends. */
export function startBurn(ctx: AppContext, hash: string, index: number, duration: number): Promise<void> {
  const key = keyOf(hash, index);
  let p = inFlight.get(key);
  if (!p) {
    p = burning(() => burn(ctx, hash, index, duration))
      .catch((err: unknown) => {
        if (!isTransient(err)) throw err;
        passing.set(key, err instanceof MediaToolError ? err.message : 'The video could not be made right now.');
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, p);
  }
  return p;
}

/** The stored bytes of a ready burn-in, for serving. */
export async function burnedBlob(ctx: AppContext, hash: string, index: number): Promise<{ hash: string; size: number } | null> {
  const status = await burnStatus(ctx, hash, index);
  if (status.state !== 'ready') return null;
  const blob = await findBlob(ctx.db, status.blob);
  return blob ? { hash: blob.hash, size: Number(blob.size) } : null;
}

async function burn(ctx: AppContext, hash: string, index: number, duration: number): Promise<void> {
  if ((await burnStatus(ctx, hash, index)).state === 'ready') return;
  const dir = mediaDir(ctx, 'tmp', `burn-${newId()}`);
  await mkdir(dir, { recursive: true });
  const out = join(dir, 'burned.mp4');
  try {
    let made = true;
    try {
      await withBlobFile(ctx, hash, (path) => run(ctx, path, index, out, duration));
    } catch (err) {
      if (isTransient(err)) throw err;
      // The content cannot be burned in (a broken track, no picture): remembered, so it is not tried again.
      made = false;
    }
    await keep(ctx, hash, index, made ? out : null);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function run(ctx: AppContext, source: string, index: number, out: string, duration: number): Promise<void> {
  const { ffmpeg } = mediaTools(ctx.config);
  // The subtitle's canvas (720×480 for a DVD, the video's size for a Blu-ray) is scaled to the picture, drawn over
  // it, then the whole is brought to at most 720 lines.
  const graph =
    `[0:${index}][0:v:0]scale2ref=w=main_w:h=main_h[sub][pic];[pic][sub]overlay=format=auto,` +
    `scale=-2:'min(${MAX_HEIGHT},ih)',setsar=1,format=yuv420p[out]`;
  await runTool(
    ffmpeg,
    [
      '-hide_banner', '-nostdin', '-loglevel', 'error', '-nostats', '-y',
      ...INPUT_GUARD,
      '-i', `file:${source}`,
      '-filter_complex', graph,
      '-map', '[out]', '-map', '0:a:0?',
      '-sn', '-dn', '-map_metadata', '-1', '-map_chapters', '-1',
      '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23',
      '-c:a', 'aac', '-b:a', String(AUDIO_BITS), '-ac', '2',
      '-max_muxing_queue_size', '1024',
      // The index first, so the browser can play and seek before the whole file has come.
      '-movflags', '+faststart',
      '-f', 'mp4', `file:${out}`,
    ],
    { timeoutMs: timeLimitMs(duration) },
  );
}

/** Records the burn-in (or, with no file, that it cannot be made). */
async function keep(ctx: AppContext, hash: string, index: number, path: string | null): Promise<void> {
  const info = path ? await stat(path).catch(() => null) : null;
  const blob = info && info.size > 0 ? await adoptFile(ctx, path!) : '';
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('media_thumbnails')
      .values({ hash, size: sizeOf(index), thumb_hash: blob, mime_type: 'video/mp4', width: 0, height: 0, created_at: now })
      .onConflict((oc) => oc.columns(['hash', 'size']).doNothing())
      .returning('hash')
      .executeTakeFirst();
    if (inserted && blob) await addBlobRefs(trx, blob, info!.size, 1, now);
  });
}
