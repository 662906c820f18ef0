/**
 * Thumbnails: the image itself (EXIF orientation applied), a video frame at a tenth of its length, or an audio
 * file's cover art, in three sizes made together on first request and kept as blobs.
 */
import { readFile, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { mediaTypeOf } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { FileRow } from '../db/schema.js';
import { withBlobFile } from './media-blobs.js';
import { findThumbnail, saveThumbnails, type NewThumbnail, type ThumbnailRow } from './media.repository.js';
import { loadMusicMetadata, loadSharp } from './media-libs.js';
import { INPUT_GUARD, isTransient, mediaTools, runTool } from './media-tools.js';
import { THUMBNAIL_PIXELS, type ThumbnailSize } from './playback.policy.js';
import { createLimiter } from './limiter.js';
import { probeContent } from './probe.service.js';

/** Images larger than this are not read whole into memory for a thumbnail. */
const MAX_IMAGE_BYTES = 100 * 1024 * 1024;
/** Thumbnails made at once by this process; a grid of new videos queues behind it instead of starting 100 ffmpegs. */
const limited = createLimiter(2);

const inFlight = new Map<string, Promise<void>>();

/** The stored thumbnail of a file at a size; null when the file has none (audio without cover art, unreadable content). */
export async function thumbnailOf(ctx: AppContext, file: FileRow, size: ThumbnailSize): Promise<ThumbnailRow | null> {
  const known = await findThumbnail(ctx.db, file.hash, size);
  if (known) return known.thumb_hash ? known : null;
  const kind = mediaTypeOf(file.name, file.mime_type);
  if (!kind) return null;
  let p = inFlight.get(file.hash);
  if (!p) {
    p = limited(() => makeThumbnails(ctx, file.hash, kind)).finally(() => inFlight.delete(file.hash));
    inFlight.set(file.hash, p);
  }
  await p;
  const made = await findThumbnail(ctx.db, file.hash, size);
  return made?.thumb_hash ? made : null;
}

/** Makes and records every size; content with no picture is recorded as such so it is not tried on every request. */
async function makeThumbnails(ctx: AppContext, hash: string, kind: 'video' | 'image' | 'audio'): Promise<void> {
  let source: Buffer | null;
  try {
    source = await withBlobFile(ctx, hash, (path) => pictureSource(ctx, hash, kind, path));
  } catch (err) {
    // A missing tool, missing bytes or an overloaded machine say nothing about the content: try again next time.
    if (isTransient(err)) throw err;
    // Anything else (a decoder's complaint) means the content has no picture to show.
    source = null;
  }
  const now = ctx.clock.now();
  const sizes = Object.keys(THUMBNAIL_PIXELS) as ThumbnailSize[];
  let thumbs: NewThumbnail[];
  try {
    thumbs = source ? await encodeSizes(ctx, source, sizes) : [];
  } catch (err) {
    // A full disk is not the content's fault: nothing is recorded, and the next request tries again.
    if (isTransient(err)) throw err;
    thumbs = [];
  }
  if (thumbs.length === 0) thumbs = sizes.map((size) => ({ size, thumb_hash: '', mime_type: '', width: 0, height: 0, bytes: 0 }));
  await saveThumbnails(ctx.db, hash, thumbs, now);
}

/** The full-size picture to scale down: image bytes, a decoded video frame (PNG) or embedded cover art. */
async function pictureSource(ctx: AppContext, hash: string, kind: 'video' | 'image' | 'audio', path: string): Promise<Buffer | null> {
  if (kind === 'image') {
    if ((await stat(path)).size > MAX_IMAGE_BYTES) return null;
    // Read into memory rather than by path: an SVG then has no base location to resolve files against.
    const bytes = await readFile(path);
    const meta = await (await loadSharp())(bytes).metadata();
    return meta.format === 'svg' ? null : bytes;
  }
  if (kind === 'audio') {
    const { parseFile, selectCover } = await loadMusicMetadata();
    const meta = await parseFile(path, { skipCovers: false, duration: false });
    const cover = selectCover(meta.common.picture);
    return cover ? Buffer.from(cover.data) : null;
  }
  const { probe } = await probeContent(ctx, hash, 'video');
  const duration = probe?.kind === 'video' ? probe.duration : 0;
  const frame = await videoFrame(ctx, path, duration * 0.1);
  return frame.length ? frame : videoFrame(ctx, path, 0);
}

/** One frame at `at` seconds as PNG, at most 1280 px on its longer side (the rotation the file asks for applied). */
function videoFrame(ctx: AppContext, path: string, at: number): Promise<Buffer> {
  const { ffmpeg } = mediaTools(ctx.config);
  const longest = THUMBNAIL_PIXELS.SIZE_LARGE;
  return runTool(
    ffmpeg,
    [
      '-hide_banner', '-nostdin', '-loglevel', 'error',
      ...INPUT_GUARD,
      '-ss', at.toFixed(3),
      '-i', `file:${path}`,
      '-map', '0:v:0', '-frames:v', '1', '-an', '-sn', '-dn',
      '-vf', `scale=w=${longest}:h=${longest}:force_original_aspect_ratio=decrease`,
      '-f', 'image2pipe', '-c:v', 'png', 'pipe:1',
    ],
    { timeoutMs: 60_000, maxOutput: 32 * 1024 * 1024 },
  );
}

/** Every size as WebP, never enlarged, each stored as a blob. */
async function encodeSizes(ctx: AppContext, source: Buffer, sizes: ThumbnailSize[]): Promise<NewThumbnail[]> {
  const sharp = await loadSharp();
  const base = sharp(source, { failOn: 'none', limitInputPixels: 200_000_000 }).autoOrient();
  const out: NewThumbnail[] = [];
  for (const size of sizes) {
    const px = THUMBNAIL_PIXELS[size];
    const { data, info } = await base
      .clone()
      .resize(px, px, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer({ resolveWithObject: true });
    const blob = await ctx.blobs.put(Readable.from([data]));
    out.push({ size, thumb_hash: blob.hash, mime_type: 'image/webp', width: info.width, height: info.height, bytes: blob.size });
  }
  return out;
}
