/** Creating, renaming and starring files and folders. */
import { extensionOf, FILE_KIND, FOLDER_KIND, PHASE } from '@haul/shared';
import mime from 'mime-types';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import type { FileRow } from '../db/schema.js';
import { recordEvent } from '../events/events.repository.js';
import { HttpError } from '../http/errors.js';
import { newId } from '../lib/ids.js';
import { addBlobRefs } from '../storage/blobs.repository.js';
import { freeName, nameTaken, requireFile, requireFiles, requireTargetFolder, userFilesIn } from './files.repository.js';
import { validName } from './names.policy.js';
import { trashTree } from './trash.service.js';
import { isUniqueViolation } from '../db/unique-violation.js';

function duplicated(name: string): HttpError {
  return new HttpError(409, 'file_duplicated_name', `A file or folder named "${name}" already exists here.`);
}


async function insertFile(db: Db, row: FileRow): Promise<void> {
  try {
    await db.insertInto('files').values(row).execute();
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicated(row.name);
    throw err;
  }
}

/** A fresh, complete, live row; callers fill in what a file has beyond a folder. */
function newRow(userId: string, parentId: string, name: string, kind: string, now: number): FileRow {
  return {
    id: newId(),
    user_id: userId,
    parent_id: parentId,
    name,
    kind,
    size: 0,
    mime_type: '',
    file_extension: '',
    hash: '',
    star: 0,
    star_time: null,
    trashed: 0,
    trash_group: null,
    trashed_at: null,
    phase: PHASE.COMPLETE,
    sensitive: 0,
    params: '{}',
    created_time: now,
    modified_time: now,
    changed_time: now,
  };
}

export async function createFolder(ctx: AppContext, userId: string, parentId: string, rawName: unknown): Promise<FileRow> {
  const name = validName(rawName);
  return ctx.db.transaction().execute(async (trx) => {
    await requireTargetFolder(trx, userId, parentId);
    if (await nameTaken(trx, userId, parentId, name)) throw duplicated(name);
    const now = ctx.clock.now();
    const row = newRow(userId, parentId, name, FOLDER_KIND, now);
    await insertFile(trx, row);
    await recordEvent(trx, userId, 'TYPE_CREATE', row, now);
    return row;
  });
}

/** A folder inside the caller's transaction, renamed on a clash ("name (1)"): downloads that bring their own tree. */
export async function makeFolderIn(trx: Db, userId: string, parentId: string, rawName: string, now: number): Promise<FileRow> {
  await requireTargetFolder(trx, userId, parentId);
  const row = newRow(userId, parentId, await freeName(trx, userId, parentId, validName(rawName)), FOLDER_KIND, now);
  await insertFile(trx, row);
  await recordEvent(trx, userId, 'TYPE_CREATE', row, now);
  return row;
}

export interface PlaceInput {
  parentId: string;
  name: string;
  hash: string;
  size: number;
  mimeType?: string;
  params?: Record<string, string>;
  /** A live file of the same name goes to the trash and this one takes its name (a folder of that name stays). */
  replace?: boolean;
}

/**
 * Places stored content into a folder as a complete file, renaming on a clash, inside the caller's
 * transaction. Uploads and offline downloads end here once the blob is stored and verified.
 */
export async function placeFileIn(trx: Db, userId: string, input: PlaceInput, now: number): Promise<FileRow> {
  const wanted = validName(input.name);
  await requireTargetFolder(trx, userId, input.parentId);
  if (input.replace) await trashNamesake(trx, userId, input.parentId, wanted, now);
  const name = await freeName(trx, userId, input.parentId, wanted);
  const row: FileRow = {
    ...newRow(userId, input.parentId, name, FILE_KIND, now),
    size: input.size,
    mime_type: input.mimeType || mime.lookup(name) || 'application/octet-stream',
    file_extension: extensionOf(name) ? `.${extensionOf(name)}` : '',
    hash: input.hash,
    // Where it came from (the search's platform filter and tag icon): an upload unless the caller says otherwise.
    params: JSON.stringify({ platform: 'upload', ...input.params }),
  };
  await insertFile(trx, row);
  await addBlobRefs(trx, input.hash, input.size, 1, now);
  await recordEvent(trx, userId, 'TYPE_UPLOAD', row, now);
  return row;
}

/** Replacing: the live file named `name` in the folder goes to the trash, where it can be restored from. */
async function trashNamesake(trx: Db, userId: string, parentId: string, name: string, now: number): Promise<void> {
  const old = await trx
    .selectFrom('files')
    .selectAll()
    .where('user_id', '=', userId)
    .where('parent_id', '=', parentId)
    .where('name', '=', name)
    .where('trashed', '=', 0)
    .where('kind', '=', FILE_KIND)
    .executeTakeFirst();
  if (old) await trashTree(trx, userId, old, now);
}

/** placeFileIn in a transaction of its own. */
export function placeFile(ctx: AppContext, userId: string, input: PlaceInput): Promise<FileRow> {
  return ctx.db.transaction().execute((trx) => placeFileIn(trx, userId, input, ctx.clock.now()));
}

/** PATCH files/{id}: rename (and star, for clients that patch it). */
export async function updateFile(
  ctx: AppContext,
  userId: string,
  id: string,
  patch: { name?: unknown; star?: unknown },
): Promise<FileRow> {
  const name = patch.name === undefined ? undefined : validName(patch.name);
  if (patch.star !== undefined && ![0, 1, true, false].includes(patch.star as never)) throw new HttpError(400, 'invalid_argument', 'star must be 0 or 1.');
  return ctx.db.transaction().execute(async (trx) => {
    const row = await requireFile(trx, userId, id, { live: true });
    const now = ctx.clock.now();
    const changes: Partial<FileRow> = { changed_time: now };
    if (name !== undefined && name !== row.name) {
      if (await nameTaken(trx, userId, row.parent_id, name, row.id)) throw duplicated(name);
      changes.name = name;
      changes.modified_time = now;
      if (row.kind === FILE_KIND) {
        const ext = extensionOf(name);
        changes.file_extension = ext ? `.${ext}` : '';
      }
    }
    if (patch.star !== undefined) {
      const star = patch.star === true || patch.star === 1 ? 1 : 0;
      changes.star = star;
      changes.star_time = star ? now : null;
    }
    try {
      await trx.updateTable('files').set(changes).where('id', '=', row.id).execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicated(name ?? row.name);
      throw err;
    }
    if (changes.name) await recordEvent(trx, userId, 'TYPE_UPDATE', { ...row, name: changes.name }, now);
    return { ...row, ...changes };
  });
}

/** files:star / files:unstar */
export async function setStar(ctx: AppContext, userId: string, ids: string[], star: boolean): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await requireFiles(trx, userId, ids);
    const now = ctx.clock.now();
    await trx
      .updateTable('files')
      .set({ star: star ? 1 : 0, star_time: star ? now : null, changed_time: now })
      .where(userFilesIn(userId, [...new Set(ids)]))
      .execute();
  });
}
