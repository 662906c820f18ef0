/**
 * Checking feeds, in processes that run workers. A due feed (not paused, `next_check_at` passed, no live lease) is
 * claimed by one conditional update that sets its lease, so of several workers exactly one reads it; the result is
 * written only while that lease is still the claimer's. A check reads the feed with the last answer's validators
 * (a 304 changes nothing but the times), records new items (feed-items.ts) and plans the next check: the interval,
 * or after a failure a longer wait, doubling with each failure in a row, up to a day.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.js';
import type { FeedsTable } from '../db/schema-feeds.js';
import type { JobSignals } from '../tasks/job-signals.js';
import { FeedFetchError, fetchFeed } from './feed-fetch.js';
import { ingestItems, retryWaiting } from './feed-items.js';
import { NotAFeedError, parseFeedText } from './feed-parse.js';

export const FEEDS_JOB = 'feeds';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** Longer than a check may take (the read's timeout, a .torrent per item); a worker killed mid-check holds no feed longer. */
const LEASE_MS = 10 * MINUTE;
const POLL_MS = 5_000;
/** Feeds claimed by one look; more wait for the next. */
const BATCH = 10;

/** When a feed is read next after `failures` failures in a row (0: the interval). */
export function nextCheckAfter(now: number, intervalMinutes: number, failures: number): number {
  const interval = intervalMinutes * MINUTE;
  if (failures === 0) return now + interval;
  return now + Math.min(interval * 2 ** Math.min(failures, 10), Math.max(interval, DAY));
}

export interface CheckResult {
  changed: boolean;
  tasks: number;
  error: string;
}

/** Reads one claimed feed and records what it found; the feed's row is updated only under `lease`. */
export async function checkFeed(ctx: AppContext, feed: FeedsTable, lease: number): Promise<CheckResult> {
  const now = () => ctx.clock.now();
  const settle = (changes: Partial<FeedsTable>) =>
    ctx.db.updateTable('feeds').set({ ...changes, lease_until: 0 }).where('id', '=', feed.id).where('lease_until', '=', lease).execute();
  try {
    const answer = await fetchFeed(feed.url, { etag: feed.etag, lastModified: feed.last_modified }, { allowPrivateNetwork: ctx.config.allowPrivateNetwork });
    if (!answer.changed) {
      // Nothing new, but what a limit held back may fit now.
      const tasks = await retryWaiting(ctx, feed);
      await settle({ last_checked_at: now(), next_check_at: nextCheckAfter(now(), feed.interval_minutes, 0), failures: 0, last_error: '' });
      return { changed: false, tasks, error: '' };
    }
    const parsed = await parseFeedText(answer.body);
    // The feed's settings as they are now (a change while it was read holds).
    const current = await ctx.db.selectFrom('feeds').selectAll().where('id', '=', feed.id).executeTakeFirst();
    if (!current) return { changed: true, tasks: 0, error: '' };
    const { tasks } = await ingestItems(ctx, current, parsed.items);
    await settle({
      ...(parsed.title ? { title: parsed.title } : {}),
      etag: answer.etag,
      last_modified: answer.lastModified,
      last_checked_at: now(),
      next_check_at: nextCheckAfter(now(), current.interval_minutes, 0),
      failures: 0,
      last_error: '',
    });
    return { changed: true, tasks, error: '' };
  } catch (err) {
    const words = err instanceof FeedFetchError || err instanceof NotAFeedError ? err.message : 'The feed could not be checked; it is tried again later.';
    const failures = feed.failures + 1;
    await settle({ last_checked_at: now(), next_check_at: nextCheckAfter(now(), feed.interval_minutes, failures), failures, last_error: words });
    if (!(err instanceof FeedFetchError || err instanceof NotAFeedError)) throw err;
    return { changed: false, tasks: 0, error: words };
  }
}

export class FeedWorker {
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private looking: Promise<number> | null = null;
  private again = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    private readonly signals: JobSignals,
    /** Wakes the cloud download workers when a check made tasks. */
    private readonly onTasks: () => void,
  ) {}

  start(): void {
    if (this.timer) return;
    this.unsubscribe = this.signals.onWake(FEEDS_JOB, () => this.kick());
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
    this.kick();
  }

  /** A feed was added or resumed: every worker looks now (on SQLite, this process's; others at their next poll). */
  wake(): void {
    this.signals.wake(FEEDS_JOB);
  }

  kick(): void {
    if (!this.timer) return;
    if (this.looking) {
      this.again = true;
      return;
    }
    void this.runDue().catch((err: unknown) => this.log.error({ err }, 'checking feeds failed'));
  }

  /** Claims and checks every feed due now; how many tasks the checks made. One look at a time. */
  runDue(): Promise<number> {
    if (this.looking) return this.looking;
    this.looking = (async () => {
      let made = 0;
      try {
        do {
          this.again = false;
          for (let feed = await this.claim(); feed; feed = await this.claim()) {
            try {
              made += (await checkFeed(this.ctx, feed.row, feed.lease)).tasks;
            } catch (err) {
              this.log.error({ err, feed: feed.row.id }, 'a feed check failed');
            }
          }
        } while (this.again);
      } finally {
        this.looking = null;
      }
      if (made) this.onTasks();
      return made;
    })();
    return this.looking;
  }

  /** One due feed, claimed: its lease set by a conditional update only one process can win. */
  private async claim(): Promise<{ row: FeedsTable; lease: number } | null> {
    const now = this.ctx.clock.now();
    const due = await this.ctx.db
      .selectFrom('feeds')
      .selectAll()
      .where('paused', '=', 0)
      .where('next_check_at', '<=', now)
      .where('lease_until', '<=', now)
      // An account being erased makes no more downloads; its feeds go with the erasure.
      .where('user_id', 'not in', this.ctx.db.selectFrom('users').select('id').where('deleted_at', 'is not', null))
      .orderBy('next_check_at')
      .limit(BATCH)
      .execute();
    for (const row of due) {
      // A lease a little apart from any other: the settle's `lease_until = lease` names this claim alone.
      const lease = now + LEASE_MS + Math.floor(Math.random() * 1000);
      const won = await this.ctx.db
        .updateTable('feeds')
        .set({ lease_until: lease })
        .where('id', '=', row.id)
        .where('paused', '=', 0)
        .where('next_check_at', '<=', now)
        .where('lease_until', '<=', now)
        .executeTakeFirst();
      if (Number(won.numUpdatedRows) === 1) return { row: { ...row, lease_until: lease }, lease };
    }
    return null;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.looking?.catch(() => undefined);
  }
}
