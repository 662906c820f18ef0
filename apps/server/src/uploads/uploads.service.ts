/** Resumable uploads: creation (with speed upload), finalising what arrived, cancelling and expiring. */
import { Upload } from '@tus/utils';
import { CID_THRESHOLD_BYTES, cidSampleRanges, describeError, LIMITS, PHASE } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import type { UploadRow } from '../db/schema.js';
import { chargeMonthly, refundTask } from '../quotas/traffic.js';
import { isPremium } from '../accounts/user.presenter.js';
import { findUserById } from '../accounts/users.repository.js';
import { requireTargetFolder } from '../files/files.repository.js';
import { freeSpace, requireRoom, roomFor, spaceNotEnough } from '../quotas/storage-room.js';
import { placeFileIn } from '../files/files.service.js';
import { validName } from '../files/names.policy.js';
import { HttpError, notFound } from '../http/errors.js';
import { newId } from '../lib/ids.js';
import { insertTask } from '../tasks/tasks.repository.js';
import { setBlobCid } from '../storage/blobs.repository.js';
import { createContentHasher } from '../storage/content-hash.js';
import type { UploadStore } from './upload-store.js';
import { issueChallenge, verifyProof, WHOLE_FILE_PROOF_BYTES, type ProofChallenge } from './proof.js';

/** tasks.type of uploads. */
export const UPLOAD = 'upload';

export interface CreateUploadInput {
  name: string;
  size: number;
  hash?: string;
  parentId: string;
  proof?: { challenge: string; answer: string };
  /** The client's own id of the upload: the same id again, for the same file, is the same upload. */
  clientKey?: string;
  /** Placed, it sends the live file of its name to the trash instead of taking a suffix. */
  replace?: boolean;
}

export type CreateUploadResult =
  | { kind: 'speed'; fileId: string; taskId: string }
  | { kind: 'prove'; challenge: ProofChallenge }
  | { kind: 'resumable'; upload: UploadRow };

/** An upload nobody sends bytes to for this long gives its reserved space back. */
const UPLOAD_IDLE_MS = 86_400_000;
/** The longest an upload may take, however active. */
const UPLOAD_TTL_MS = 7 * 86_400_000;

/** The expiry of an upload that just received bytes (or was created) at `now`. */
const expiryAt = (createdAt: number, now: number) => Math.min(createdAt + UPLOAD_TTL_MS, now + UPLOAD_IDLE_MS);


/** Refuses sizes over the limits and beyond the free space, counting uploads still in flight. */
async function checkSpace(db: Db, userId: string, size: number, now: number): Promise<void> {
  const user = await findUserById(db, userId);
  if (!user) throw notFound('The account no longer exists.');
  if (size > LIMITS.maxUploadBytes) throw new HttpError(400, 'file_size_too_large', 'The file exceeds 20G, the largest file Haul accepts.');
  if (size > LIMITS.freeUploadBytes && !isPremium(user, now)) {
    throw new HttpError(400, 'file_size_too_large', 'The file exceeds 4G; files this large need a premium plan.');
  }
  if (size > (await freeSpace(db, userId, now))) throw await spaceNotEnough(db, userId, size, now);
}

/** An upload task; `moved` is what it sends over the wire (nothing for a speed upload). */
function newTask(db: Db, userId: string, name: string, size: number, moved: number, phase: string, now: number, fileId = '', uploadId = ''): Promise<string> {
  const params: Record<string, string> = uploadId ? { size: String(size), upload_id: uploadId } : { size: String(size) };
  return insertTask(db, { userId, type: UPLOAD, phase, name, params, fileId, size: moved }, now);
}

/**
 * The upload `uploadId` of this user once it was placed (its row is gone), found through its task: a client asking
 * after the server finished it on its own (start-up, a crash after the last byte) learns it is complete, not unknown.
 */
export async function placedUpload(db: Db, userId: string, uploadId: string): Promise<{ size: number; fileId: string; taskId: string } | null> {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(uploadId)) return null;
  const tasks = await db
    .selectFrom('tasks')
    .select(['id', 'params', 'file_id'])
    .where('user_id', '=', userId)
    .where('type', '=', UPLOAD)
    .where('phase', '=', PHASE.COMPLETE)
    .where('params', 'like', `%${uploadId}%`)
    .execute();
  for (const t of tasks) {
    const params = JSON.parse(t.params) as { size?: string; upload_id?: string };
    if (params.upload_id === uploadId && t.file_id) return { size: Number(params.size), fileId: t.file_id, taskId: t.id };
  }
  return null;
}

export async function createUpload(ctx: AppContext, store: UploadStore, userId: string, input: CreateUploadInput): Promise<CreateUploadResult> {
  const name = validName(input.name);
  const now = ctx.clock.now();
  await requireTargetFolder(ctx.db, userId, input.parentId);
  await checkSpace(ctx.db, userId, input.size, now);

  const hash = input.hash;
  if (hash && (input.size > WHOLE_FILE_PROOF_BYTES || (await holdsContent(ctx.db, userId, hash, input.size)))) {
    // Asked whether or not the content is stored, so that this answer tells nobody what the server holds.
    if (!input.proof) return { kind: 'prove', challenge: issueChallenge(ctx, userId, hash, input.size) };
    if (await verifyProof(ctx, userId, hash, input.size, input.proof)) {
      return ctx.db.transaction().execute(async (trx) => {
        await requireRoom(trx, userId, input.size, now);
        const file = await placeFileIn(trx, userId, { parentId: input.parentId, name, hash, size: input.size, replace: input.replace }, now);
        const taskId = await newTask(trx, userId, file.name, file.size, 0, PHASE.COMPLETE, now, file.id);
        return { kind: 'speed' as const, fileId: file.id, taskId };
      });
    }
    // A wrong answer, or content not stored, is no error: the bytes simply have to be sent.
  }
  const upload: UploadRow = {
    id: newId(),
    user_id: userId,
    task_id: '',
    parent_id: input.parentId,
    name,
    size: input.size,
    declared_hash: input.hash ?? '',
    client_key: input.clientKey ?? '',
    replace_existing: input.replace ? 1 : 0,
    created_at: now,
    expires_at: expiryAt(now, now),
  };
  const same = await ctx.db.transaction().execute(async (trx) => {
    // The user's lock first (roomFor), so that two identical creations at once find each other.
    await roomFor(trx, userId, 0, now);
    // A creation whose answer was lost (a crash, a dropped connection) is asked again: the same upload answers.
    const earlier = upload.client_key ? await sameUpload(trx, upload) : undefined;
    if (earlier) return earlier;
    // Counted again inside the transaction that reserves the space (see roomFor).
    await requireRoom(trx, userId, input.size, now);
    // The month's upload allowance is taken when the upload starts and given back if it fails (failTask).
    await chargeMonthly(ctx, trx, userId, 'upload', input.size, now);
    upload.task_id = await newTask(trx, userId, name, input.size, input.size, PHASE.RUNNING, now, '', upload.id);
    await trx.insertInto('uploads').values(upload).execute();
    return undefined;
  });
  if (same) return { kind: 'resumable', upload: same };
  // The declared hash lets a store gather the bytes where they will stay (S3: the content key), checked before they do.
  await store.create(new Upload({ id: upload.id, size: input.size, offset: 0, metadata: upload.declared_hash ? { blob: upload.declared_hash } : {}, creation_date: new Date(now).toISOString() }));
  return { kind: 'resumable', upload };
}

/**
 * Whether the account has a file (in the trash included) of this content. A small file's proof is its hash (see
 * WHOLE_FILE_PROOF_BYTES), so small files are deduplicated only against the account's own: another account's would be
 * handed over to anyone who learnt its hash.
 */
async function holdsContent(db: Db, userId: string, hash: string, size: number): Promise<boolean> {
  const row = await db.selectFrom('files').select('id').where('hash', '=', hash).where('user_id', '=', userId).where('size', '=', size).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** An unfinished upload of the same client id, folder, name, size and hash. */
function sameUpload(db: Db, u: UploadRow): Promise<UploadRow | undefined> {
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('user_id', '=', u.user_id)
    .where('client_key', '=', u.client_key)
    .where('parent_id', '=', u.parent_id)
    .where('name', '=', u.name)
    .where('size', '=', u.size)
    .where('declared_hash', '=', u.declared_hash)
    .executeTakeFirst();
}

/** Bytes are coming in: the upload keeps its reservation another idle period (within its longest life). */
export async function touchUpload(ctx: AppContext, upload: UploadRow): Promise<void> {
  await ctx.db.updateTable('uploads').set({ expires_at: expiryAt(upload.created_at, ctx.clock.now()) }).where('id', '=', upload.id).execute();
}

/** The upload of this user with this id, or null. */
export function findUpload(db: Db, userId: string, id: string): Promise<UploadRow | undefined> {
  return db.selectFrom('uploads').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

async function sampleId(ctx: AppContext, hash: string, size: number): Promise<string> {
  const hasher = await createContentHasher();
  for (const [start, end] of cidSampleRanges(size)) {
    for await (const chunk of ctx.blobs.read(hash, { start, end: end - 1 })) hasher.update(chunk as Buffer);
  }
  return hasher.digest();
}

/** Ends an upload's task in error, giving back the month's allowance it took (once: only a task not failed yet). */
async function failTask(ctx: AppContext, taskId: string, message: string, now: number): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const task = await trx.selectFrom('tasks').select(['user_id', 'type', 'size', 'created_time', 'phase']).where('id', '=', taskId).executeTakeFirst();
    if (!task) return;
    const res = await trx.updateTable('tasks').set({ phase: PHASE.ERROR, message, updated_time: now }).where('id', '=', taskId).where('phase', '!=', PHASE.ERROR).executeTakeFirst();
    if (Number(res.numUpdatedRows) === 1) await refundTask(ctx, trx, task);
    else await trx.updateTable('tasks').set({ message, updated_time: now }).where('id', '=', taskId).execute();
  });
}

/**
 * All bytes arrived: check them against the announced hash, move them into the blob store and make the file visible,
 * in one transaction with the task. Throws an HttpError when nothing was kept. Safe to run again after a crash at any
 * step, and twice at once (two processes, a client's repeated PATCH and a recovery): the transaction claims the upload
 * row first, and whoever finds it gone returns the file the other placed.
 */
export async function finalizeUpload(ctx: AppContext, store: UploadStore, upload: UploadRow): Promise<string> {
  const hash = await store.digest(upload.id, upload.size);
  const now = ctx.clock.now();
  if (upload.declared_hash && upload.declared_hash !== hash) {
    await failTask(ctx, upload.task_id, 'The uploaded bytes do not match the file\'s hash; nothing was kept. Please upload it again.', now);
    await ctx.db.deleteFrom('uploads').where('id', '=', upload.id).execute();
    await store.forget(upload.id);
    throw new HttpError(400, 'file_hash_mismatch', 'The uploaded bytes do not match the file\'s hash; nothing was kept.');
  }
  await store.moveToBlobs(upload.id, hash);
  const cid = upload.size > CID_THRESHOLD_BYTES ? await sampleId(ctx, hash, upload.size) : '';
  try {
    const fileId = await ctx.db.transaction().execute(async (trx) => {
      const claimed = await trx.deleteFrom('uploads').where('id', '=', upload.id).executeTakeFirst();
      if (Number(claimed.numDeletedRows) !== 1) return null;
      const file = await placeFileIn(
        trx,
        upload.user_id,
        { parentId: upload.parent_id, name: upload.name, hash, size: upload.size, replace: upload.replace_existing === 1 },
        now,
      );
      if (cid) await setBlobCid(trx, hash, cid);
      await trx.updateTable('tasks').set({ phase: PHASE.COMPLETE, progress: 100, file_id: file.id, name: file.name, updated_time: now }).where('id', '=', upload.task_id).execute();
      return file.id;
    });
    await store.forget(upload.id);
    return fileId ?? (await placedBy(ctx.db, upload));
  } catch (err) {
    // A database or disk that failed for a moment keeps the upload: a later HEAD, PATCH or start-up finishes it.
    if (!(err instanceof HttpError)) throw err;
    // The target folder went to the trash or the account filled up meanwhile: say so on the task.
    await failTask(ctx, upload.task_id, describeError(err.message), now);
    await ctx.db.deleteFrom('uploads').where('id', '=', upload.id).execute();
    await store.forget(upload.id);
    throw err;
  }
}

/** The file another finalisation of this upload placed (it claimed the row first), or a 404 when it placed none. */
async function placedBy(db: Db, upload: UploadRow): Promise<string> {
  const task = await db.selectFrom('tasks').select(['phase', 'file_id', 'message']).where('id', '=', upload.task_id).executeTakeFirst();
  if (task?.phase === PHASE.COMPLETE && task.file_id) return task.file_id;
  throw new HttpError(404, 'file_not_found', task?.message || 'The upload does not exist.');
}

/** Finalisations under way in this process, so a repeated PATCH or a HEAD shares the one already running. */
const finishing = new Map<string, Promise<string>>();

/** finalizeUpload, once at a time per upload in this process. */
export function finishUpload(ctx: AppContext, store: UploadStore, upload: UploadRow): Promise<string> {
  let done = finishing.get(upload.id);
  if (!done) {
    done = finalizeUpload(ctx, store, upload).finally(() => finishing.delete(upload.id));
    finishing.set(upload.id, done);
  }
  return done;
}

/** Whether every byte of an upload arrived (still held by the upload store, or moved into the blob store by a run that then died). */
export async function allBytesArrived(store: UploadStore, upload: UploadRow): Promise<boolean> {
  return (await store.bytesStored(upload.id)) === upload.size || (await store.hashedUpTo(upload.id)) === upload.size;
}

/**
 * Uploads whose last byte arrived but whose file was never placed (the server died in between): placed now, without
 * the client's help. Run at start-up; returns how many were finished.
 */
export async function finishStrandedUploads(ctx: AppContext, store: UploadStore, log: { warn: (o: object, m: string) => void }): Promise<number> {
  let done = 0;
  for (const upload of await ctx.db.selectFrom('uploads').selectAll().execute()) {
    if (!(await allBytesArrived(store, upload))) continue;
    try {
      await finishUpload(ctx, store, upload);
      done++;
    } catch (err) {
      log.warn({ upload: upload.id, err: (err as Error).message }, 'a stranded upload could not be finished');
    }
  }
  return done;
}

/** Stops an upload and forgets its bytes (cancel, or expiry). */
export async function dropUpload(ctx: AppContext, store: UploadStore, upload: UploadRow, message: string): Promise<void> {
  await failTask(ctx, upload.task_id, message, ctx.clock.now());
  await ctx.db.deleteFrom('uploads').where('id', '=', upload.id).execute();
  await store.forget(upload.id);
}

/** Background job: uploads abandoned past their expiry are removed with their bytes. */
export async function expireUploads(ctx: AppContext, store: UploadStore): Promise<number> {
  const due = await ctx.db.selectFrom('uploads').selectAll().where('expires_at', '<', ctx.clock.now()).limit(1000).execute();
  for (const u of due) await dropUpload(ctx, store, u, 'The upload expired before it was finished.');
  return due.length;
}

/** GET resource/cid: whether a blob with this sample id and size is stored (large-file pre-check). */
export async function cidExists(db: Db, cid: string, size: number): Promise<boolean> {
  const row = await db.selectFrom('blobs').select('hash').where('cid', '=', cid).where('size', '=', size).where('ref_count', '>', 0).executeTakeFirst();
  return row !== undefined;
}
