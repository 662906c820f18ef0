/** The upload lock in the database: one writer per upload across processes, the newer request winning, dead holders' leases taken over. */
import { ERRORS } from '@tus/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepUploadLocks, UploadLocker } from '../src/uploads/upload-locker.js';
import { startTestHaul, type TestHaul } from './helper.js';

let h: TestHaul;
beforeAll(async () => {
  h = await startTestHaul();
});
afterAll(() => h.destroy());

const never = () => new AbortController().signal;
const holders = (id: string) => h.ctx.db.selectFrom('upload_locks').selectAll().where('upload_id', '=', id).execute();

describe('upload locks in the database', () => {
  it('makes a second request wait, asks the holder to let go, and hands the lock over when it does', async () => {
    // Two lockers over the same database stand for two API processes.
    const a = new UploadLocker(h.ctx.db, { renewMs: 20, pollMs: 10 });
    const b = new UploadLocker(h.ctx.db, { renewMs: 20, pollMs: 10 });
    const first = a.newLock('up-1');
    let released = 0;
    await first.lock(never(), () => {
      released++;
    });
    const order: string[] = [];
    const second = b.newLock('up-1');
    const taking = second.lock(never(), () => undefined).then(() => order.push('second has it'));
    // The holder hears that someone waits at its next renewal.
    await expect.poll(() => released, { timeout: 5_000 }).toBeGreaterThan(0);
    expect(order).toEqual([]);
    order.push('first lets go');
    await first.unlock();
    await taking;
    expect(order).toEqual(['first lets go', 'second has it']);
    expect(await holders('up-1')).toHaveLength(1);
    await second.unlock();
    // Let go: the row stays (its wanted mark queues newcomers behind waiters) with nobody holding it, until swept.
    expect(await holders('up-1')).toMatchObject([{ holder: '', expires_at: 0 }]);
  });

  it('does not make locks of different uploads wait for each other', async () => {
    const locker = new UploadLocker(h.ctx.db, { acquireTimeoutMs: 2_000 });
    const one = locker.newLock('up-a');
    const two = locker.newLock('up-b');
    await one.lock(never(), () => undefined);
    await two.lock(never(), () => undefined);
    await Promise.all([one.unlock(), two.unlock()]);
  });

  it('takes over the lease of a holder that died, and the late holder cannot release the new one', async () => {
    // A process killed while writing: its row stays, its lease runs out since nobody renews it.
    await h.ctx.db.insertInto('upload_locks').values({ upload_id: 'up-dead', holder: 'gone', expires_at: Date.now() - 1, wanted: 0 }).execute();
    const lock = new UploadLocker(h.ctx.db, { acquireTimeoutMs: 1_000 }).newLock('up-dead');
    await lock.lock(never(), () => undefined);
    const [row] = await holders('up-dead');
    expect(row!.holder).not.toBe('gone');
    expect(Number(row!.expires_at)).toBeGreaterThan(Date.now());
    await lock.unlock();
  });

  it('gives up after its time limit on a lease that is alive, and stops waiting when the request goes away', async () => {
    await h.ctx.db.insertInto('upload_locks').values({ upload_id: 'up-busy', holder: 'elsewhere', expires_at: Date.now() + 60_000, wanted: 0 }).execute();
    const locker = new UploadLocker(h.ctx.db, { acquireTimeoutMs: 300, pollMs: 20 });
    await expect(locker.newLock('up-busy').lock(never(), () => undefined)).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    // The wait was made known to the holder.
    expect((await holders('up-busy'))[0]!.wanted).toBe(1);
    const gone = new AbortController();
    const waiting = new UploadLocker(h.ctx.db, { acquireTimeoutMs: 60_000, pollMs: 20 }).newLock('up-busy').lock(gone.signal, () => undefined);
    gone.abort();
    await expect(waiting).rejects.toBe(ERRORS.ABORTED);
    expect((await holders('up-busy'))[0]!.holder).toBe('elsewhere');
  });

  it('sweeps leases let go or left an hour ago and keeps recent ones', async () => {
    const now = Date.now();
    await h.ctx.db
      .insertInto('upload_locks')
      .values([
        { upload_id: 'up-old', holder: 'x', expires_at: now - 2 * 3_600_000, wanted: 0 },
        { upload_id: 'up-recent', holder: 'y', expires_at: now - 60_000, wanted: 0 },
      ])
      .execute();
    const before = (await h.ctx.db.selectFrom('upload_locks').select('upload_id').execute()).length;
    expect(await sweepUploadLocks(h.ctx.db, now)).toBeGreaterThanOrEqual(2);
    expect(await holders('up-old')).toHaveLength(0);
    // Let go earlier in this file (expires_at 0).
    expect(await holders('up-1')).toHaveLength(0);
    expect((await h.ctx.db.selectFrom('upload_locks').select('upload_id').execute()).length).toBeLessThan(before);
    expect(await holders('up-recent')).toHaveLength(1);
  });
});
