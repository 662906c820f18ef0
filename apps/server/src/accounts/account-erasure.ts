/**
 * Deleting an account, second step: erasing everything a deleted account had, a chunk at a time, so a large drive is
 * never one giant transaction. Each chunk stands alone (bytes on disk go before the rows that lead to them; file rows
 * and the blob counts they hold go in one transaction), so the work can stop anywhere (a crash, a restart) and the
 * periodic jobs take it up again from what is left. The account's row goes last, once nothing of it remains.
 */
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import { userFilesIn } from '../files/files.repository.js';
import { dropOfflineBytes, OFFLINE } from '../offline/offline.service.js';
import { releaseBlobRefs } from '../storage/blobs.repository.js';
import { eraseAccountFeedback } from '../feedback/feedback.repository.js';
import { eraseAccountBookmarks } from '../bookmarks/bookmarks.service.js';
import { eraseAccountFeeds } from '../feeds/feeds.service.js';

/** Rows erased per statement (and per transaction for files). */
const CHUNK = 500;

export type ErasureOutcome = 'done' | 'more';

export interface ErasureOptions {
  /** Stops between chunks (the server is stopping); what is left is taken up later. */
  signal?: AbortSignal;
  /** Stops after this many chunks (tests stop half-way through as a crash would). */
  maxChunks?: number;
}

/** Erases up to CHUNK rows of one kind (and what they hold on disk); answers how many it found. */
type Step = (ctx: AppContext, userId: string) => Promise<number>;

/** Unfinished uploads: their bytes, hasher state and tus metadata, then their rows. */
const eraseUploads: Step = async (ctx, userId) => {
  const rows = await ctx.db.selectFrom('uploads').select('id').where('user_id', '=', userId).limit(CHUNK).execute();
  for (const r of rows) await ctx.uploads.forget(r.id);
  if (rows.length) await ctx.db.deleteFrom('uploads').where('user_id', '=', userId).where('id', 'in', rows.map((r) => r.id)).execute();
  return rows.length;
};

/** Tasks; a cloud download's partial bytes go first (its worker, told at its next report, stops and drops them too). */
const eraseTasks: Step = async (ctx, userId) => {
  const rows = await ctx.db.selectFrom('tasks').select(['id', 'type']).where('user_id', '=', userId).limit(CHUNK).execute();
  for (const t of rows) if (t.type === OFFLINE) await dropOfflineBytes(ctx.config.dataDir, t.id);
  if (rows.length) await ctx.db.deleteFrom('tasks').where('user_id', '=', userId).where('id', 'in', rows.map((r) => r.id)).execute();
  return rows.length;
};

/**
 * Files and folders with the blob references they hold, in one transaction per chunk. RETURNING counts only the rows
 * this statement removed, so two processes erasing the same account never release a reference twice. Blobs left
 * unreferenced are removed by the periodic purge (collectGarbageBlobs); blobs another account stores keep their count.
 */
const eraseFiles: Step = (ctx, userId) =>
  ctx.db.transaction().execute(async (trx) => {
    const ids = (await trx.selectFrom('files').select('id').where('user_id', '=', userId).limit(CHUNK).execute()).map((r) => r.id);
    if (!ids.length) return 0;
    // By primary key (userFilesIn): `user_id = ? AND id IN (…)` read every remaining file of the account per chunk on SQLite.
    const gone = await trx.deleteFrom('files').where(userFilesIn(userId, ids)).returning('hash').execute();
    const refs = new Map<string, number>();
    for (const { hash } of gone) if (hash) refs.set(hash, (refs.get(hash) ?? 0) + 1);
    await releaseBlobRefs(trx, refs, ctx.clock.now());
    return ids.length;
  });

/** Rows that hold nothing but themselves, CHUNK at a time (shares take their share_files along: cascade). */
function eraseRows(table: 'shares' | 'events' | 'file_tombstones' | 'refresh_tokens' | 'sessions' | 'verifications', key: 'id' | 'file_id'): Step {
  // One shape for every table: Kysely cannot type a query over a union of tables.
  const t = table as 'events';
  const k = key as 'id';
  return async (ctx, userId) => {
    const r = await ctx.db.deleteFrom(t).where(k, 'in', ctx.db.selectFrom(t).select(k).where('user_id', '=', userId).limit(CHUNK)).executeTakeFirst();
    return Number(r.numDeletedRows);
  };
}

/** Attempt counts keyed by the account (sign-in guesses at it, sudo passwords): keys ending in `|u:<id>`. */
const eraseAttempts: Step = async (ctx, userId) => {
  const pattern = `%|u:${userId.replace(/[\\%_]/g, (c) => `\\${c}`)}`;
  const r = await ctx.db.deleteFrom('attempt_limits').where(sql<boolean>`key LIKE ${pattern} ESCAPE '\\'`).executeTakeFirst();
  return Number(r.numDeletedRows);
};

/**
 * The account's own audit log (what an operator's account did to others stays, naming an account that is gone); an
 * operator's deletion of the account stays too, as the operator's record of it.
 */
const eraseAudit: Step = async (ctx, userId) => {
  const own = ctx.db.selectFrom('audit_events').select('id').where('subject_id', '=', userId).where('action', '!=', 'admin.user.deleted');
  const r = await ctx.db.deleteFrom('audit_events').where('id', 'in', own.limit(CHUNK)).executeTakeFirst();
  return Number(r.numDeletedRows);
};

/** Transcodes the account queued: the content may be another account's too, so the job stays, without its name. */
const forgetMediaJobs: Step = async (ctx, userId) => {
  const r = await ctx.db.updateTable('media_jobs').set({ user_id: '' }).where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numUpdatedRows);
};

/** Reports of the account's shares go with them; reports the account made stay, the operator's, without its name. */
const eraseReports: Step = async (ctx, userId) => {
  const own = ctx.db.selectFrom('share_reports').select('id').where('owner_id', '=', userId);
  const gone = await ctx.db.deleteFrom('share_reports').where('id', 'in', own.limit(CHUNK)).executeTakeFirst();
  const made = await ctx.db.updateTable('share_reports').set({ reporter_id: '' }).where('reporter_id', '=', userId).executeTakeFirst();
  return Number(gone.numDeletedRows) + Number(made.numUpdatedRows);
};

// Not erased: `trials` (plans/trial.ts). Its rows name no account and hold no address, only the address's SHA-256,
// and they are what keeps a deleted account's address from a second trial when it signs up again.
/** In order: what could still change the drive first (uploads finishing, downloads placing), then the drive itself. */
const STEPS: Step[] = [
  eraseUploads,
  eraseTasks,
  eraseRows('shares', 'id'),
  eraseFiles,
  eraseRows('events', 'id'),
  eraseRows('file_tombstones', 'file_id'),
  eraseRows('refresh_tokens', 'id'),
  eraseRows('sessions', 'id'),
  eraseRows('verifications', 'id'),
  eraseAttempts,
  eraseAudit,
  (ctx, userId) => eraseAccountFeedback(ctx.db, userId, CHUNK, ctx.clock.now()),
  forgetMediaJobs,
  eraseReports,
  (ctx, userId) => eraseAccountBookmarks(ctx.db, userId, CHUNK),
  (ctx, userId) => eraseAccountFeeds(ctx.db, userId, CHUNK),
];

/**
 * The account's row, once nothing whose erasure does more than delete a row (bytes on disk, blob counts) is left; the
 * few rows a racing sign-in may have added go with it (cascade). The row's lock is taken first, so a writer that
 * raced the erasure (an upload finishing) either committed before (and is seen here: another pass) or fails after.
 * False when something is left.
 */
async function removeAccountRow(ctx: AppContext, userId: string): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    if (ctx.dialect === 'postgres') await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    else await trx.updateTable('users').set((eb) => ({ session_epoch: eb.ref('session_epoch') })).where('id', '=', userId).execute();
    const user = await trx.selectFrom('users').select('deleted_at').where('id', '=', userId).executeTakeFirst();
    if (!user) return true;
    if (user.deleted_at === null) throw new Error(`account ${userId} is not deleted`);
    for (const table of ['files', 'uploads', 'tasks'] as const) {
      if (await trx.selectFrom(table).select('id').where('user_id', '=', userId).limit(1).executeTakeFirst()) return false;
    }
    await trx.deleteFrom('users').where('id', '=', userId).execute();
    return true;
  });
}

/** Whether the account is marked deleted (and its row still there). Erasure never starts on anything else. */
async function isDeleted(ctx: AppContext, userId: string): Promise<boolean | null> {
  const row = await ctx.db.selectFrom('users').select('deleted_at').where('id', '=', userId).executeTakeFirst();
  return row ? row.deleted_at !== null : null;
}

/** Erases a deleted account: 'done' once its row is gone, 'more' when stopped before (the jobs go on with it). */
export async function eraseAccount(ctx: AppContext, userId: string, opts: ErasureOptions = {}): Promise<ErasureOutcome> {
  let budget = opts.maxChunks ?? Infinity;
  // A writer that raced a pass (a download placing its file) leaves rows for the next; three passes, then the jobs.
  for (let pass = 0; pass < 3; pass++) {
    const deleted = await isDeleted(ctx, userId);
    if (deleted === null) return 'done';
    if (!deleted) throw new Error(`account ${userId} is not deleted`);
    for (const step of STEPS) {
      for (;;) {
        if (opts.signal?.aborted || budget-- <= 0) return 'more';
        if ((await step(ctx, userId)) < CHUNK) break;
      }
    }
    if (await removeAccountRow(ctx, userId)) return 'done';
  }
  return 'more';
}

/** Periodic job: goes on with every deleted account whose erasure has not finished (after a crash or a restart). */
export async function continueAccountErasures(ctx: AppContext, opts: ErasureOptions = {}): Promise<number> {
  const due = await ctx.db.selectFrom('users').select('id').where('deleted_at', 'is not', null).orderBy('deleted_at').limit(100).execute();
  let done = 0;
  for (const { id } of due) if ((await eraseAccount(ctx, id, opts)) === 'done') done++;
  return done;
}

/** Erasures started in the background right after a deletion; a graceful stop waits for them to pause. */
export class AccountEraser {
  private readonly stopping = new AbortController();
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Starts erasing a just-deleted account; whatever a stop or a crash leaves, the periodic jobs finish. */
  kick(userId: string): void {
    if (this.stopping.signal.aborted) return;
    const run: Promise<unknown> = eraseAccount(this.ctx, userId, { signal: this.stopping.signal })
      .catch((err) => this.log.error(err, 'erasing a deleted account stopped; the periodic jobs will go on with it'))
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }

  /** Resolves once no background erasure of this process runs. */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all(this.running);
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.idle();
  }
}
