/**
 * Bookmarks: links kept to fetch later. Keeping stores what the client's check found (or guesses from the link); the
 * link's server is not asked here, so keeping is instant even for a magnet link. Fetching makes cloud downloads through
 * createOfflineTasks, so the daily and monthly limits and the folder checks are the ones every cloud download meets.
 */
import { sql } from 'kysely';
import type { Bookmark, BookmarkSource } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import type { BookmarksTable } from '../db/schema-bookmarks.js';
import type { TaskRow } from '../db/schema.js';
import { newestFirstPage } from '../db/newest-first.js';
import { requireTargetFolder } from '../files/files.repository.js';
import { HttpError, badInput, notFound } from '../http/errors.js';
import { newId, sha256Hex } from '../lib/ids.js';
import { toRfc3339 } from '../lib/time.js';
import { probeHttpLink } from '../offline/http-probe.js';
import { parseHttpLink } from '../offline/network-guard.js';
import { createOfflineTasks, TORRENT_MAX_BYTES } from '../offline/offline.service.js';
import { OFFLINE_REASONS, offlineReason } from '../offline/offline-reasons.js';
import { limitError } from '../quotas/limit-errors.js';
import { planLimits } from '../quotas/plan-limits.js';
import { dailyTaskQuota } from '../quotas/traffic.js';

type BookmarkRow = BookmarksTable;
type Kind = BookmarksTable['kind'];

/** More than a person keeps by hand; it bounds what one account can store. */
export const MAX_BOOKMARKS = 10_000;
const PROBE_TIMEOUT_MS = 15_000;

export function presentBookmark(row: BookmarkRow): Bookmark {
  return {
    id: row.id,
    url: row.url,
    name: row.name,
    kind: row.kind,
    size: row.size === null ? '' : String(row.size),
    mime_type: row.mime_type,
    checked_at: toRfc3339(row.checked_at),
    created_at: toRfc3339(row.created_at),
    source: row.source,
  };
}

/** The link as kept: trimmed; an http(s) link normalised by the URL parser, a magnet link as given. */
function normaliseLink(raw: string): { url: string; kind: Kind; name: string } {
  const link = raw.trim();
  if (/^magnet:\?/i.test(link)) {
    const dn = new URLSearchParams(link.slice(link.indexOf('?') + 1)).get('dn')?.trim();
    return { url: link, kind: 'magnet', name: dn || 'magnet link' };
  }
  const url = parseHttpLink(link);
  if (!url) throw badInput(`"${link.slice(0, 200)}" is not an http, https or magnet link.`);
  let last = url.pathname.split('/').filter(Boolean).pop() ?? '';
  try {
    last = decodeURIComponent(last);
  } catch {
    // A stray % stays as it is.
  }
  return { url: url.toString(), kind: /\.torrent$/i.test(url.pathname) ? 'torrent' : 'http', name: last || url.hostname };
}

function cleanName(name: string): string {
  const n = name.trim().replace(/[/\\]/g, '_');
  if (!n) throw badInput('The name must not be empty.');
  return n.slice(0, 255);
}

export interface KeepInput {
  url: string;
  name?: string;
  source: BookmarkSource;
  check?: { kind: Kind; name: string; size: string; mime_type: string };
}

/** Keeps a link; a link kept already is updated (the name and check given replace the old) and moves to the top. */
export async function keepBookmark(ctx: AppContext, userId: string, input: KeepInput): Promise<BookmarkRow> {
  const link = normaliseLink(input.url);
  const name = cleanName(input.name ?? (input.check?.name || link.name));
  const now = ctx.clock.now();
  const urlKey = sha256Hex(link.url);
  const existing = await ctx.db.selectFrom('bookmarks').select('id').where('user_id', '=', userId).where('url_key', '=', urlKey).executeTakeFirst();
  if (!existing) {
    const { n } = await ctx.db
      .selectFrom('bookmarks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= MAX_BOOKMARKS) {
      throw new HttpError(403, 'resource_exhausted', `You keep ${MAX_BOOKMARKS} bookmarks, the most an account may: delete some first.`);
    }
  }
  const check = input.check
    ? { kind: input.check.kind, size: input.check.size ? Number(input.check.size) : null, mime_type: input.check.mime_type, checked_at: now }
    : null;
  // Kept again without a new check or name: the old ones stay.
  const changes = {
    ...(input.name || check ? { name } : {}),
    ...(check ?? {}),
    source: input.source,
    created_at: now,
  };
  return ctx.db
    .insertInto('bookmarks')
    .values({
      id: newId(),
      user_id: userId,
      url: link.url,
      url_key: urlKey,
      name,
      kind: check?.kind ?? link.kind,
      size: check?.size ?? null,
      mime_type: check?.mime_type ?? '',
      checked_at: check?.checked_at ?? null,
      source: input.source,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['user_id', 'url_key']).doUpdateSet(changes))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** `%` and `_` typed by the person are looked for as themselves. */
const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listBookmarks(
  db: Db,
  userId: string,
  opts: { q?: string; limit: number; pageToken?: string },
): Promise<{ rows: BookmarkRow[]; nextPageToken: string }> {
  let query = db.selectFrom('bookmarks').selectAll().where('user_id', '=', userId);
  const q = opts.q?.trim();
  if (q) {
    const p = likePattern(q);
    query = query.where(sql<boolean>`(lower(name) LIKE ${p} ESCAPE '\\' OR lower(url) LIKE ${p} ESCAPE '\\')`);
  }
  return newestFirstPage(query, { listing: q ? `bookmarks|${q}` : 'bookmarks', column: 'created_at', limit: opts.limit, pageToken: opts.pageToken });
}

export async function renameBookmark(ctx: AppContext, userId: string, id: string, name: string): Promise<BookmarkRow> {
  const row = await ctx.db
    .updateTable('bookmarks')
    .set({ name: cleanName(name) })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound('No such bookmark of yours.');
  return row;
}

/** The account's bookmarks of these ids, in the order given; a 404 naming none when one is not the account's. */
async function requireBookmarks(db: Db, userId: string, ids: string[]): Promise<BookmarkRow[]> {
  const unique = [...new Set(ids)];
  const rows = await db.selectFrom('bookmarks').selectAll().where('user_id', '=', userId).where('id', 'in', unique).execute();
  if (rows.length !== unique.length) throw notFound('One or more bookmarks do not exist.');
  return unique.map((id) => rows.find((r) => r.id === id)!);
}

export async function deleteBookmarks(ctx: AppContext, userId: string, ids: string[]): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await requireBookmarks(trx, userId, ids);
    await trx.deleteFrom('bookmarks').where('user_id', '=', userId).where('id', 'in', ids).execute();
  });
}

/** A torrent bookmark's .torrent file, read through the URL checker's probe (the same network rules). */
async function torrentOf(ctx: AppContext, row: BookmarkRow): Promise<string> {
  try {
    const probe = await probeHttpLink(row.url, { allowPrivateNetwork: ctx.config.allowPrivateNetwork, timeoutMs: PROBE_TIMEOUT_MS, torrentMaxBytes: TORRENT_MAX_BYTES });
    if (!probe.torrent) throw badInput(`"${row.name}" no longer serves a .torrent file.`);
    return probe.torrent.toString('base64');
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw badInput(`"${row.name}": ${OFFLINE_REASONS[offlineReason(err)]}`);
  }
}

/**
 * One cloud download per bookmark into `parentId`, named as the bookmark is: one createOfflineTasks call each (a call
 * names a single link, and takes one .torrent file). So that the lot is refused as a whole, the .torrent files are read
 * and today's allowance is checked for all of them before any task is made; each call still charges under its own
 * transaction, so a race with another add cannot pass the limit.
 */
export async function fetchBookmarks(ctx: AppContext, userId: string, ids: string[], parentId: string, requestId?: string): Promise<TaskRow[]> {
  const rows = await requireBookmarks(ctx.db, userId, ids);
  // A folder that is gone or not the account's answers as such, before any limit is counted.
  await requireTargetFolder(ctx.db, userId, parentId);
  const torrents = new Map<string, string>();
  for (const row of rows) if (row.kind === 'torrent') torrents.set(row.id, await torrentOf(ctx, row));
  const { dailyTasks, premium } = await planLimits(ctx, userId);
  const today = await dailyTaskQuota(ctx, userId, dailyTasks);
  if (Number(today.usage) + rows.length > dailyTasks) {
    const more = premium ? 'try again tomorrow' : 'try again tomorrow or upgrade to premium for more';
    throw limitError('task_daily_create_limit', {
      title: `You can add ${dailyTasks} cloud downloads a day; ${more}.`,
      kind: 'cloud_download',
      limit: String(dailyTasks),
      usage: today.usage,
      needed: String(rows.length),
      reset_at: today.reset_at,
    });
  }
  const made: TaskRow[] = [];
  for (const row of rows) {
    const torrent = torrents.get(row.id);
    const input = torrent ? { text: '', torrent, parentId, name: row.name } : { text: row.url, parentId, name: row.name };
    made.push(...(await createOfflineTasks(ctx, userId, input, { requestId })));
  }
  return made;
}

/** Account erasure: the account's bookmarks, `chunk` at a time. */
export async function eraseAccountBookmarks(db: Db, userId: string, chunk: number): Promise<number> {
  const ids = db.selectFrom('bookmarks').select('id').where('user_id', '=', userId).limit(chunk);
  const r = await db.deleteFrom('bookmarks').where('id', 'in', ids).executeTakeFirst();
  return Number(r.numDeletedRows);
}
