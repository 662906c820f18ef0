/**
 * Cloud decompression: listing an archive of the drive, and starting a task that unpacks it. Everything that can be
 * refused is refused here, before the task exists: not an archive, a wrong password, a bomb, no room.
 */
import { archiveFolderName, canDecompress, FILE_KIND, PHASE } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { FileRow, TaskRow } from '../db/schema.js';
import { planLimits } from '../quotas/plan-limits.js';
import { requireFile, requireTargetFolder } from '../files/files.repository.js';
import { freeSpace, spaceNotEnough } from '../quotas/storage-room.js';
import { badInput, HttpError } from '../http/errors.js';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { mediaDir } from '../media/media-blobs.js';
import { newId } from '../lib/ids.js';
import { LocalBlobStore } from '../storage/local-blob-store.js';
import { createLimiter } from '../media/limiter.js';
import { insertTask } from '../tasks/tasks.repository.js';
import { TooManyEntries, type RawListing } from './archive-listing.js';
import { bombReason, chooseEntries, planEntries, type PlannedEntry } from './archive-plan.js';
import { listArchive, streamEntry, type ArchiveSource } from './archive-reader.js';
import { sealPassword } from './password-seal.js';
import { knownEncoding } from './entry-names.js';
import { SevenZipError, sevenZipPath } from './seven-zip.js';

export const DECOMPRESS = 'decompress';
const LIST_TIMEOUT_MS = 120_000;
/** Listings and password checks run by requests, at once in this process: many calls wait rather than fork 7zz each. */
const requestRuns = createLimiter(4);
const PROOF_BYTES = 64 * 1024;

/** What a client sends to name an archive and open it. */
export interface ArchiveRequest {
  fileId: string;
  password?: string;
  encoding?: string;
}

/** The archive file of the user's, live, that Haul opens; and the operator's premium gate. */
async function requireArchive(ctx: AppContext, userId: string, req: ArchiveRequest): Promise<FileRow> {
  const file = await requireFile(ctx.db, userId, req.fileId, { live: true });
  if (file.kind !== FILE_KIND || !canDecompress(file.name)) throw badInput('This file is not an archive Haul can open (zip, 7z, rar, tar).');
  if (!knownEncoding(req.encoding ?? '')) throw badInput('encoding is not one Haul knows.');
  // A line break would end the password early on 7zz's standard input.
  if (/[\r\n]/.test(req.password ?? '')) throw badInput('The password must not contain line breaks.');
  if (ctx.config.decompressPremiumOnly && !(await planLimits(ctx, userId)).premium) {
    throw new HttpError(403, 'permission_denied', 'Cloud decompression is a premium benefit on this server.');
  }
  return file;
}

/**
 * Runs `fn` with the archive's bytes on disk, as 7zz needs them (it seeks): the local store's own file, read in place,
 * or a scratch copy of an object in S3, removed afterwards.
 */
export async function withArchiveSource<T>(ctx: AppContext, hash: string, name: string, fn: (src: ArchiveSource) => Promise<T>): Promise<T> {
  const { src, release } = await openArchiveSource(ctx, hash, name);
  try {
    return await fn(src);
  } finally {
    await release();
  }
}

/** The same as a pair: the source, and what to call once done with it. */
export async function openArchiveSource(ctx: AppContext, hash: string, name: string): Promise<{ src: ArchiveSource; release: () => Promise<void> }> {
  if (ctx.blobs instanceof LocalBlobStore) return { src: { path: ctx.blobs.pathOf(hash), name }, release: async () => undefined };
  const dir = mediaDir(ctx, 'tmp');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${newId()}.archive`);
  const release = () => rm(path, { force: true });
  try {
    await pipeline(ctx.blobs.read(hash), createWriteStream(path));
  } catch (err) {
    await release();
    throw err;
  }
  return { src: { path, name }, release };
}

/** 7zz's errors as the API's: a wrong password and a file that is no archive are the caller's. */
export function asHttpError(err: unknown): unknown {
  if (err instanceof TooManyEntries) return badInput(err.message);
  if (!(err instanceof SevenZipError)) return err;
  if (err.kind === 'password') return new HttpError(400, 'archive_password_wrong', 'The archive needs a password, and none or a wrong one was given.');
  if (err.kind === 'not_archive' || err.kind === 'damaged') return badInput(err.message);
  return new HttpError(500, 'internal', err.message);
}

export interface OpenedArchive {
  file: FileRow;
  listing: RawListing;
  entries: PlannedEntry[];
  encryptedHeaders: boolean;
}

/** Lists the archive (with the password when its listing is encrypted) and plans where each entry lands. */
export async function openArchive(ctx: AppContext, userId: string, req: ArchiveRequest): Promise<OpenedArchive> {
  const file = await requireArchive(ctx, userId, req);
  const opts = { bin: sevenZipPath(ctx.config.sevenZipPath), password: req.password ?? '', timeoutMs: LIST_TIMEOUT_MS };
  const encoding = (req.encoding ?? '').toLowerCase();
  return withArchiveSource(ctx, file.hash, file.name, async (src) => {
    let listing: RawListing;
    let encryptedHeaders = false;
    try {
      listing = await requestRuns(() => listArchive(src, { ...opts, password: '' }, ctx.config.archiveMaxEntries, encoding));
    } catch (err) {
      if (!(err instanceof SevenZipError && err.kind === 'password')) throw asHttpError(err);
      encryptedHeaders = true;
      if (!req.password) throw asHttpError(err);
      listing = await requestRuns(() => listArchive(src, opts, ctx.config.archiveMaxEntries, encoding)).catch((e: unknown) => Promise.reject(asHttpError(e)));
    }
    return { file, listing, entries: planEntries(listing.entries), encryptedHeaders };
  });
}

/**
 * Proves the password on the smallest encrypted entry chosen. Formats check a password before the data (zip's check
 * bytes, AES's verifier, RAR 5's check value, 7z's first block), so 64 KiB that decode without complaint are taken as
 * proof and the run is stopped there: a large entry is not unpacked twice. A wrong password that slips through (one
 * ZipCrypto check byte in 256) fails the task at the entry's checksum instead.
 */
async function checkPassword(ctx: AppContext, file: FileRow, chosen: PlannedEntry[], req: ArchiveRequest): Promise<void> {
  const locked = chosen.filter((e) => e.encrypted && !e.folder).sort((a, b) => a.size - b.size)[0];
  if (!locked) return;
  if (!req.password) throw asHttpError(new SevenZipError('', 'password'));
  const bin = sevenZipPath(ctx.config.sevenZipPath);
  await withArchiveSource(ctx, file.hash, file.name, (src) => requestRuns(async () => {
    const run = streamEntry(src, locked.selector, { bin, password: req.password!, timeoutMs: LIST_TIMEOUT_MS }, locked.rawName);
    let seen = 0;
    const enough = new Promise<void>((resolve) => {
      run.stdout.on('data', (c: Buffer) => {
        seen += c.length;
        if (seen >= PROOF_BYTES) resolve();
      });
    });
    await Promise.race([run.done, enough]);
    run.kill();
  })).catch((e: unknown) => Promise.reject(asHttpError(e)));
}

export interface DecompressRequest extends ArchiveRequest {
  paths?: string[];
  /** undefined: a new folder named after the archive, beside it. */
  parentId?: string;
}

/**
 * Starts an unpacking task, once the password, the limits and the space have been checked. `requestId`: the creating
 * request's, logged with the worker's lines for this task.
 */
export async function createDecompressTask(ctx: AppContext, userId: string, req: DecompressRequest, requestId?: string): Promise<TaskRow> {
  const { file, entries, encryptedHeaders } = await openArchive(ctx, userId, req);
  const { chosen, unknown } = chooseEntries(entries, req.paths);
  if (unknown.length) throw badInput(`The archive has no entry "${unknown[0]!.slice(0, 200)}".`);
  if (!chosen.some((e) => !e.folder)) throw badInput('Nothing to unpack: the entries chosen hold no file Haul can unpack.');
  const limits = { maxEntries: ctx.config.archiveMaxEntries, maxBytes: ctx.config.archiveMaxBytes, maxRatio: ctx.config.archiveMaxRatio };
  const bomb = bombReason(chosen, file.size, limits);
  if (bomb) throw new HttpError(400, 'invalid_argument', bomb);
  if (!encryptedHeaders) await checkPassword(ctx, file, chosen, req);
  const total = chosen.reduce((n, e) => n + e.size, 0);
  const now = ctx.clock.now();
  if (total > (await freeSpace(ctx.db, userId, now))) {
    throw await spaceNotEnough(ctx.db, userId, total, now, 'What the archive unpacks to does not fit in the space left in your drive.');
  }
  const intoNew = req.parentId === undefined;
  const parentId = intoNew ? file.parent_id : req.parentId!;
  return ctx.db.transaction().execute(async (trx) => {
    await requireTargetFolder(trx, userId, parentId);
    const params = { file_id: file.id, parent_id: parentId, size: String(total), entries: String(chosen.filter((e) => !e.folder).length) };
    const id = await insertTask(trx, { userId, type: DECOMPRESS, phase: PHASE.PENDING, name: file.name, params, size: 0, requestId }, now);
    await trx
      .insertInto('archive_jobs')
      .values({
        task_id: id,
        user_id: userId,
        file_id: file.id,
        archive_hash: file.hash,
        archive_name: file.name,
        password: sealPassword(ctx.secrets.linkKey, req.password ?? ''),
        encoding: (req.encoding ?? '').toLowerCase(),
        parent_id: parentId,
        folder_name: intoNew ? archiveFolderName(file.name) : '',
        entries: JSON.stringify(chosen.map((e) => ({ p: e.selector, x: e.rawName ? 1 : 0, t: e.target, s: e.size, d: e.folder ? 1 : 0, e: e.encrypted ? 1 : 0, ...(e.copies ? { c: e.copies } : {}) }))),
        done: '{}',
        created_at: now,
      })
      .execute();
    return trx.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  });
}
