/**
 * Play while it downloads: the songs and videos of a torrent task that has not finished, served from the pieces
 * already verified in the task's folder. A range waits for the pieces it covers, asking the engine for them first;
 * the engine's view (which pieces are in, where each file is written) comes through `TorrentEngine.partial`, which
 * any process that sees the data folder can read. Links are signed for the task, the file and the account's session.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import mime from 'mime-types';
import parseTorrent from 'parse-torrent';
import { isAudio, isVideo, PHASE } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { TaskRow } from '../db/schema.js';
import { publicUrl } from '../http/public-url.js';
import { parseParams } from '../lib/params.js';
import { knownSource, torrentSourceKey } from './offline-sources.js';
import { torrentDir } from './offline.service.js';
import { safeTorrentPath } from './torrent-paths.js';
import type { PartialTorrent } from './torrent-types.js';
import { blobBytes } from '../storage/blob-store.js';

export interface PlayableFile {
  index: number;
  name: string;
  path: string;
  size: number;
  offset: number;
  /** The path as the torrent names it (where the engine writes it). */
  torrentPath: string;
  mime: string;
  kind: 'video' | 'audio';
}

export interface PlayableTorrent {
  infoHash: string;
  pieceLength: number;
  files: PlayableFile[];
}

/** A piece's bit in a bitfield (most significant bit first, as BitTorrent's). */
export const hasPiece = (bits: Uint8Array, i: number) => ((bits[i >> 3] ?? 0) & (128 >> (i & 7))) !== 0;

/** The chosen songs and videos of a torrent task whose file list is known; null when it is not (yet). */
/** Parsed .torrent files by their blob's hash: a blob never changes, and a player asks for ranges many times a second. */
const parsed = new Map<string, Promise<Awaited<ReturnType<typeof parseTorrent>>>>();
const PARSED_MAX = 64;

function parsedTorrent(ctx: AppContext, hash: string) {
  let t = parsed.get(hash);
  if (!t) {
    if (parsed.size >= PARSED_MAX) parsed.delete(parsed.keys().next().value!);
    parsed.set(hash, (t = blobBytes(ctx.blobs, hash).then((bytes) => parseTorrent(bytes))));
    t.catch(() => parsed.delete(hash));
  }
  return t;
}

export async function playableTorrent(ctx: AppContext, task: TaskRow): Promise<PlayableTorrent | null> {
  const params = parseParams(task.params);
  if (!params.info_hash) return null;
  const source = await knownSource(ctx, torrentSourceKey(params.info_hash, 'torrent'));
  if (!source) return null;
  const t = await parsedTorrent(ctx, source.hash);
  const chosen = new Set((params.file_ids ?? '').split(',').filter(Boolean).map(Number));
  const files: PlayableFile[] = [];
  let offset = 0;
  for (const [index, f] of (t.files ?? []).entries()) {
    const at = offset;
    offset += f.length;
    if (chosen.size && !chosen.has(index)) continue;
    const path = safeTorrentPath(f.path, index);
    const name = path.at(-1)!;
    const type = mime.lookup(name) || '';
    const kind = isVideo(name, type) ? 'video' : isAudio(name, type) ? 'audio' : null;
    if (kind) files.push({ index, name, path: path.join('/'), size: f.length, offset: at, torrentPath: f.path, mime: type || `${kind}/*`, kind });
  }
  return { infoHash: t.infoHash, pieceLength: (t as { pieceLength?: number }).pieceLength!, files };
}

/** Bytes of `file` whose pieces are verified. */
export function receivedOf(file: PlayableFile, pieceLength: number, bits: Uint8Array | null): number {
  if (!bits || file.size === 0) return 0;
  let n = 0;
  for (let p = Math.floor(file.offset / pieceLength); p * pieceLength < file.offset + file.size; p++) {
    if (!hasPiece(bits, p)) continue;
    n += Math.min(file.offset + file.size, (p + 1) * pieceLength) - Math.max(file.offset, p * pieceLength);
  }
  return n;
}

function sign(ctx: AppContext, taskId: string, index: number, expires: number, epoch: number): string {
  return createHmac('sha256', ctx.secrets.linkKey).update(`task-play|${taskId}|${index}|${expires}|${epoch}`).digest('base64url');
}

export function playLink(ctx: AppContext, task: TaskRow, file: PlayableFile, epoch: number): string {
  const expires = Math.floor(ctx.clock.now() / 1000) + ctx.config.downloadLinkTtlSeconds;
  const s = sign(ctx, task.id, file.index, expires, epoch);
  return `${publicUrl(ctx)}/drive/v1/tasks/${task.id}/play/${file.index}/${encodeURIComponent(file.name)}?e=${expires}&s=${s}`;
}

export function playLinkValid(ctx: AppContext, taskId: string, index: number, e: string | undefined, s: string | undefined, epoch: number): boolean {
  const expires = Number(e);
  if (!s || !Number.isInteger(expires) || expires * 1000 <= ctx.clock.now()) return false;
  const expected = Buffer.from(sign(ctx, taskId, index, expires, epoch));
  const given = Buffer.from(s);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Whether a task may still be played from its folder: a torrent not finished. */
export const unfinishedTorrent = (task: TaskRow) => parseParams(task.params).kind === 'bt' && task.phase !== PHASE.COMPLETE;

/** How long a range waits for a piece that does not arrive before the answer ends. */
const PIECE_WAIT_MS = 120_000;
const POLL_MS = 250;
/** Pieces asked for ahead of the one a player waits for. */
const AHEAD = 8;

/**
 * Bytes `start`..`end` of `file` (written at `path`), piece by piece as each is verified. `alive` says whether the
 * task still runs its download (deleted or finished: the answer ends).
 */
export function streamRange(torrent: PlayableTorrent, file: PlayableFile, partial: PartialTorrent, path: string, range: { start: number; end: number }, alive: () => Promise<boolean>): Readable {
  const { pieceLength } = torrent;
  async function* bytes() {
    const fh = await open(path, 'r').catch(() => null);
    let at = range.start;
    try {
      while (at <= range.end) {
        const abs = file.offset + at;
        const piece = Math.floor(abs / pieceLength);
        const last = Math.floor((file.offset + range.end) / pieceLength);
        let waited = 0;
        let asked = false;
        for (;;) {
          const bits = await partial.pieces();
          if (bits && hasPiece(bits, piece)) break;
          if (!asked) await partial.want(piece, Math.min(last, piece + AHEAD));
          asked = true;
          if (waited >= PIECE_WAIT_MS || (waited % 5000 === 0 && waited > 0 && !(await alive()))) return;
          await new Promise((r) => setTimeout(r, POLL_MS));
          waited += POLL_MS;
        }
        const upto = Math.min(range.end, (piece + 1) * pieceLength - file.offset - 1);
        const handle = fh ?? (await open(path, 'r'));
        const buf = Buffer.alloc(upto - at + 1);
        const { bytesRead } = await handle.read(buf, 0, buf.length, at);
        if (handle !== fh) await handle.close();
        if (bytesRead < buf.length) return;
        yield buf;
        at = upto + 1;
      }
    } finally {
      await fh?.close();
    }
  }
  return Readable.from(bytes(), { objectMode: false });
}

export const taskDirOf = (ctx: AppContext, task: TaskRow) => torrentDir(ctx.config.dataDir, task.id);
