/**
 * tus's lock on an upload, held in the database (upload_locks) instead of one process's memory: behind a proxy, a
 * client that reconnects may reach another API process while its old request is still writing, and two writers would
 * append the same bytes twice. A lease its holder renews while it works: a process that dies lets go when it runs out.
 * A request that wants a held lock marks it `wanted`; the holder, renewing, sees that and ends its request (tus's
 * "request release"), so the newer request of the client wins, as with tus's own in-memory lock.
 */
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/utils';
import type { Db } from '../db/database.js';
import { newId } from '../lib/ids.js';

export interface UploadLockerOptions {
  /** How long a lease lasts unless renewed. */
  leaseMs?: number;
  /** How often a holder renews (and looks whether someone waits); how often a waiter tries again. */
  renewMs?: number;
  pollMs?: number;
  /** How long a request waits for a lock before giving up (tus answers 500 ERR_LOCK_TIMEOUT). */
  acquireTimeoutMs?: number;
  now?: () => number;
}

export class UploadLocker implements Locker {
  readonly leaseMs: number;
  readonly renewMs: number;
  readonly pollMs: number;
  readonly acquireTimeoutMs: number;
  readonly now: () => number;
  /** Holders in this process, asked to let go at once (no wait for their next renewal). */
  readonly holders = new Map<string, RequestRelease>();
  /** Waiters in this process, woken at once when a lock here is let go (no wait for their next poll). */
  readonly waiters = new Map<string, Set<() => void>>();

  constructor(
    readonly db: Db,
    opts: UploadLockerOptions = {},
  ) {
    this.leaseMs = opts.leaseMs ?? 15_000;
    this.renewMs = opts.renewMs ?? 1_000;
    this.pollMs = opts.pollMs ?? 100;
    this.acquireTimeoutMs = opts.acquireTimeoutMs ?? 30_000;
    this.now = opts.now ?? Date.now;
  }

  newLock(id: string): Lock {
    return new UploadLock(this, id);
  }

  /** Resolves after `ms`, or sooner when a lock on `id` is let go in this process or `signal` aborts. */
  pause(id: string, ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const set = this.waiters.get(id) ?? new Set();
      this.waiters.set(id, set);
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        if (set.size === 0) this.waiters.delete(id);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      set.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  wake(id: string): void {
    for (const w of [...(this.waiters.get(id) ?? [])]) w();
  }
}

/** Leases let go or left behind by processes that died, an hour ago or more (a live holder renews every second); hourly. */
export async function sweepUploadLocks(db: Db, now: number): Promise<number> {
  const res = await db.deleteFrom('upload_locks').where('expires_at', '<', now - 3_600_000).executeTakeFirst();
  return Number(res.numDeletedRows);
}

class UploadLock implements Lock {
  private readonly holder = newId();
  private renewal: NodeJS.Timeout | null = null;
  private release: RequestRelease | null = null;

  constructor(
    private readonly locker: UploadLocker,
    private readonly id: string,
  ) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const { now, pollMs, acquireTimeoutMs } = this.locker;
    const deadline = now() + acquireTimeoutMs;
    let waiting = false;
    while (!(await this.tryTake(waiting))) {
      if (signal.aborted) throw ERRORS.ABORTED;
      if (now() >= deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
      // Marked wanted (again: another waiter may have taken and cleared it): a holder elsewhere sees it at its next
      // renewal; one in this process is asked at once.
      waiting = true;
      await this.locker.db.updateTable('upload_locks').set({ wanted: 1 }).where('upload_id', '=', this.id).where('wanted', '=', 0).execute();
      await this.locker.holders.get(this.id)?.();
      await this.locker.pause(this.id, pollMs, signal);
    }
    this.release = requestRelease;
    this.locker.holders.set(this.id, requestRelease);
    this.renewal = setInterval(() => void this.renew(requestRelease), this.locker.renewMs);
    this.renewal.unref();
  }

  /** Lets go, keeping the row (and its `wanted` mark, so a request arriving now queues behind those already waiting). */
  async unlock(): Promise<void> {
    if (this.renewal) clearInterval(this.renewal);
    this.renewal = null;
    if (this.release && this.locker.holders.get(this.id) === this.release) this.locker.holders.delete(this.id);
    await this.locker.db.updateTable('upload_locks').set({ holder: '', expires_at: 0 }).where('upload_id', '=', this.id).where('holder', '=', this.holder).execute();
    this.locker.wake(this.id);
  }

  /**
   * Takes the lease if it is free (let go, or its holder's ran out), in one statement so two takers cannot both win.
   * A free lease someone is waiting for goes only to a request that waits too: one just arriving queues first.
   */
  private async tryTake(waiting: boolean): Promise<boolean> {
    const t = this.locker.now();
    const res = await this.locker.db
      .insertInto('upload_locks')
      .values({ upload_id: this.id, holder: this.holder, expires_at: t + this.locker.leaseMs, wanted: 0 })
      .onConflict((oc) =>
        oc
          .column('upload_id')
          .doUpdateSet({ holder: this.holder, expires_at: t + this.locker.leaseMs, wanted: 0 })
          .where((eb) => eb.and([eb('upload_locks.expires_at', '<', t), ...(waiting ? [] : [eb('upload_locks.wanted', '=', 0)])])),
      )
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** Extends the lease; a waiting request, or a lease lost (the process stalled past it), ends this one's request. */
  private async renew(requestRelease: RequestRelease): Promise<void> {
    try {
      const row = await this.locker.db
        .updateTable('upload_locks')
        .set({ expires_at: this.locker.now() + this.locker.leaseMs })
        .where('upload_id', '=', this.id)
        .where('holder', '=', this.holder)
        .returning('wanted')
        .executeTakeFirst();
      if (!row || row.wanted) await requestRelease();
    } catch {
      // The database is away for a moment: the lease holds until it runs out, and the next renewal tries again.
    }
  }
}
