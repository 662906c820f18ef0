/** The file list: filters, sort orders and stable keyset paging (no OFFSET), plus the incremental-sync variant. */
import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { SortOrder } from '@haul/shared';
import type { AppContext } from '../context.js';
import { namedStatement } from '../db/named-statements.js';
import type { Database, FileRow } from '../db/schema.js';
import { decodePageToken, encodePageToken, type CursorType } from '../lib/page-token.js';
import type { FileFilters } from './list-filters.js';
import { userFilesIn } from './files.repository.js';
import { filesForNameSearch } from './name-search.js';
import { searchScopeFolders } from './search-scope.js';

type Col = 'modified_time' | 'name' | 'size' | 'file_extension' | 'id';
type Dir = 'asc' | 'desc';

const COLUMN_TYPES: Record<Col, CursorType> = { modified_time: 'number', name: 'string', size: 'number', file_extension: 'string', id: 'string' };

const ORDER_COLUMNS: Record<SortOrder, [Col, Dir][]> = {
  MODIFY_TIME_DESC: [['modified_time', 'desc'], ['id', 'desc']],
  MODIFY_TIME_ASC: [['modified_time', 'asc'], ['id', 'asc']],
  NAME_ASC: [['name', 'asc'], ['id', 'asc']],
  NAME_DESC: [['name', 'desc'], ['id', 'desc']],
  SIZE_ASC: [['size', 'asc'], ['id', 'asc']],
  SIZE_DESC: [['size', 'desc'], ['id', 'desc']],
  TYPE_ASC: [['file_extension', 'asc'], ['name', 'asc'], ['id', 'asc']],
  TYPE_DESC: [['file_extension', 'desc'], ['name', 'asc'], ['id', 'asc']],
};

/** Orders a folder's own index holds (files_parent_mtime, _name, _size: user, folder, column, id). */
const INDEXED_ORDERS = new Set<SortOrder>(['MODIFY_TIME_DESC', 'MODIFY_TIME_ASC', 'NAME_ASC', 'NAME_DESC', 'SIZE_ASC', 'SIZE_DESC']);

/** Clients may have written changes just before a sync started; look this far back so none are missed. */
const SYNC_SAFETY_MS = 30_000;

export interface ListRequest {
  userId: string;
  /** A folder id, '' for the root, or '*' for the whole drive. */
  parentId: string;
  filters: FileFilters;
  order: SortOrder;
  limit: number;
  pageToken: string | undefined;
}

type Tombstone = { file_id: string; user_id: string; parent_id: string; kind: string; deleted_time: number };

export interface ListPage {
  /** In page order. */
  rows: FileRow[];
  tombstones: Tombstone[];
  /** Ids in page order (files and tombstones interleaved in sync mode). */
  order: string[];
  nextPageToken: string;
  syncTime: number;
}

function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Rows after the cursor in the given order: a row-value comparison when all directions agree. */
function afterCursor(eb: ExpressionBuilder<Database, 'files'>, cols: [Col, Dir][], values: unknown[]): Expression<SqlBool> {
  const dirs = new Set(cols.map(([, d]) => d));
  if (dirs.size === 1) {
    const op = cols[0]![1] === 'asc' ? '>' : '<';
    const refs = cols.map(([c]) => sql.ref(c));
    return sql<SqlBool>`(${sql.join(refs)}) ${sql.raw(op)} (${sql.join(values)})`;
  }
  const ors = cols.map(([col, dir], i) => {
    const eqs = cols.slice(0, i).map(([c], j) => eb(c, '=', values[j] as never));
    return eb.and([...eqs, eb(col, dir === 'asc' ? '>' : '<', values[i] as never)]);
  });
  return eb.or(ors);
}

/** One page of a folder (or the whole drive) with filters and a sort order. */
export async function listFilesPage(ctx: AppContext, req: ListRequest): Promise<ListPage> {
  const syncTime = ctx.clock.now();
  if (req.filters.changedAfter !== undefined) return listChangesPage(ctx, req, syncTime);
  const f = req.filters;
  const cols = ORDER_COLUMNS[req.order];
  // A search by name may read from the rows its index found instead of the whole table (name-search.ts).
  // Asked for a list of ids, the primary key leads and the owner is checked per row (userFilesIn): beside a plain
  // `user_id = ?` SQLite walked the whole drive in list order to find them.
  let q = (await filesForNameSearch(ctx, f.nameContains))
    .selectAll()
    .where(f.ids ? userFilesIn(req.userId, f.ids.length ? f.ids : ['']) : (eb) => eb('user_id', '=', req.userId));

  const wholeDrive = req.parentId === '*';
  if (f.trashed === true) {
    // The trash shows what the user trashed, not everything that went along inside trashed folders.
    q = q.where('trashed', '=', 1);
    if (wholeDrive || req.parentId === '') q = q.whereRef('trash_group', '=', 'id');
    else q = q.where('parent_id', '=', req.parentId);
  } else {
    q = q.where('trashed', '=', 0);
    if (!wholeDrive) q = q.where('parent_id', '=', req.parentId);
  }
  if (f.folderId) q = q.where('parent_id', 'in', await searchScopeFolders(ctx.db, req.userId, f.folderId));
  if (f.phases) q = q.where('phase', 'in', f.phases);
  if (f.star) q = q.where('star', '=', 1);
  if (f.nameContains) q = q.where(sql<SqlBool>`lower(name) LIKE ${`%${likeEscape(f.nameContains.toLowerCase())}%`} ESCAPE '\\'`);
  if (f.kind) q = q.where('kind', 'like', `%${likeEscape(f.kind)}%`);
  if (f.mimePrefix) q = q.where(sql<SqlBool>`mime_type LIKE ${`${likeEscape(f.mimePrefix)}%`} ESCAPE '\\'`);
  if (f.platform) {
    const platform = ctx.dialect === 'postgres' ? sql`(params::json->>'platform')` : sql`json_extract(params, '$.platform')`;
    q = q.where(sql<SqlBool>`${platform} = ${f.platform}`);
  }

  if (req.pageToken) {
    const values = decodePageToken(req.pageToken, req.order, cols.map(([c]) => COLUMN_TYPES[c]));
    q = q.where((eb) => afterCursor(eb, cols, values));
  }
  for (const [c, d] of cols) q = q.orderBy(c, d);
  q = q.limit(req.limit + 1);
  // A folder's page in an order one of its indexes holds walks that index whatever the values: named on PostgreSQL
  // (db/named-statements.ts), as every page of every folder runs it. Searches and filtered lists stay unnamed.
  const filtered = f.nameContains || f.ids || f.folderId || f.kind || f.mimePrefix || f.platform;
  const plain = !wholeDrive && !(f.trashed === true && req.parentId === '') && INDEXED_ORDERS.has(req.order) && !filtered;
  const rows = plain ? (await ctx.db.executeQuery(namedStatement(q.compile()))).rows : await q.execute();
  const more = rows.length > req.limit;
  if (more) rows.pop();
  const last = rows[rows.length - 1];
  return {
    rows,
    tombstones: [],
    order: rows.map((r) => r.id),
    nextPageToken: more && last ? encodePageToken(req.order, cols.map(([c]) => last[c])) : '',
    syncTime: syncTime - SYNC_SAFETY_MS,
  };
}

/**
 * Incremental sync: everything changed after a time, trashed and deleted items included so a
 * client can drop them, in change order. Other filters than the folder and phase do not apply.
 */
async function listChangesPage(ctx: AppContext, req: ListRequest, now: number): Promise<ListPage> {
  const since = req.filters.changedAfter!;
  const cursor = req.pageToken ? decodePageToken(req.pageToken, 'sync', ['number', 'string']) : null;
  const n = req.limit + 1;
  // Two index walks from the cursor, (user, changed_time, id) and (user, deleted_time, file_id), each reading whole
  // rows, merged here: no union to sort, no second lookup of the rows by id. Past the first page the cursor alone is
  // the lower bound (it is later than `since`): given both, SQLite starts the walk at `since` and filters its way up
  // to the cursor, so every page cost more than the one before it.
  const fromCursor = cursor !== null && (cursor[0] as number) > since;
  let files = ctx.db.selectFrom('files').selectAll().where('user_id', '=', req.userId);
  files = fromCursor
    ? files.where(sql<SqlBool>`(changed_time, id) > (${cursor[0]}, ${cursor[1]})`)
    : files.where('changed_time', '>', since);
  if (req.parentId !== '*') files = files.where('parent_id', '=', req.parentId);
  if (req.filters.phases) files = files.where('phase', 'in', req.filters.phases);
  let gone = ctx.db.selectFrom('file_tombstones').selectAll().where('user_id', '=', req.userId);
  gone = fromCursor
    ? gone.where(sql<SqlBool>`(deleted_time, file_id) > (${cursor[0]}, ${cursor[1]})`)
    : gone.where('deleted_time', '>', since);
  if (req.parentId !== '*') gone = gone.where('parent_id', '=', req.parentId);
  const [rows, tombstones] = await Promise.all([
    files.orderBy('changed_time').orderBy('id').limit(n).execute(),
    gone.orderBy('deleted_time').orderBy('file_id').limit(n).execute(),
  ]);
  type Item = { id: string; t: number; row: FileRow | null; gone: Tombstone | null };
  const items: Item[] = [
    ...rows.map((r) => ({ id: r.id, t: Number(r.changed_time), row: r, gone: null })),
    ...tombstones.map((g) => ({ id: g.file_id, t: Number(g.deleted_time), row: null, gone: g })),
  ].sort((a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const more = items.length > req.limit;
  const page = items.slice(0, req.limit);
  const last = page[page.length - 1];
  return {
    // In page order, so that without tombstones the rows are the page as they are.
    rows: page.flatMap((i) => (i.row ? [i.row] : [])),
    tombstones: page.flatMap((i) => (i.gone ? [i.gone] : [])),
    order: page.map((i) => i.id),
    nextPageToken: more && last ? encodePageToken('sync', [last.t, last.id]) : '',
    syncTime: now - SYNC_SAFETY_MS,
  };
}
