/** Attempt limits: keyed on what the lookup uses, counted before the check, kept in the database for every process. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHaul } from '../src/app.js';
import { clientKey, delayAfter } from '../src/limits/attempt-limiter.js';
import { startTestHaul, type TestHaul } from './helper.js';

describe('attempt limits', () => {
  let h: TestHaul;
  beforeAll(async () => {
    h = await startTestHaul();
  });
  afterAll(() => h.destroy());

  const signIn = async (app: TestHaul['app'], username: string, password: string, from = '203.0.113.1') => {
    const res = await app.inject({ method: 'POST', url: '/v1/auth/signin', payload: { username, password }, remoteAddress: from });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };

  it('counts an IPv6 client per /64 and an IPv4-mapped one as IPv4', () => {
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe(clientKey('2001:db8:1:2:ffff:1:2:3'));
    expect(clientKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
    expect(clientKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(delayAfter({ free: 5, baseDelayMs: 1000, maxDelayMs: 8000, forgetMs: 1 }, 5)).toBe(0);
    expect([6, 7, 8, 9, 40].map((n) => delayAfter({ free: 5, baseDelayMs: 1000, maxDelayMs: 8000, forgetMs: 1 }, n))).toEqual([1000, 2000, 4000, 8000, 8000]);
  });

  it('counts padded and re-cased spellings of an address as the one account they sign in to', async () => {
    await h.signUp('padded@example.com', 'right-password');
    const spellings = ['padded@example.com', '  padded@example.com', 'PADDED@example.com ', '\tPadded@Example.com'];
    const statuses: number[] = [];
    for (let i = 0; i < 16; i++) statuses.push((await signIn(h.app, spellings[i % 4]!, `wrong-${i}-guess`, '203.0.113.20')).status);
    expect(statuses.filter((s) => s === 400).length).toBe(11);
    expect(statuses.filter((s) => s === 429).length).toBe(5);
    // The right password from that client waits too; from elsewhere it works.
    expect((await signIn(h.app, ' padded@example.com', 'right-password', '203.0.113.20')).status).toBe(429);
    expect((await signIn(h.app, 'padded@example.com', 'right-password', '203.0.113.21')).status).toBe(200);
  });

  it('takes parallel guesses one after another, so a burst gets no more than the free tries', async () => {
    await h.signUp('burst@example.com', 'right-password');
    const all = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn(h.app, 'burst@example.com', `wrong-${i}-guess`, '198.51.100.40')));
    expect(all.filter((r) => r.status === 400).length).toBe(11);
    expect(all.filter((r) => r.status === 429).length).toBe(29);
    expect(all.find((r) => r.status === 429)!.body.error).toBe('too_many_requests');
  });

  it('slows guessing from many addresses at one account, while the owner still signs in from a known address', async () => {
    await h.signUp('popular@example.com', 'right-password');
    // The owner signed in before from home.
    expect((await signIn(h.app, 'popular@example.com', 'right-password', '192.0.2.77')).status).toBe(200);
    // A botnet: one guess per address.
    const statuses: number[] = [];
    for (let i = 0; i < 36; i++) statuses.push((await signIn(h.app, 'popular@example.com', `botnet-${i}-guess`, `100.64.${i}.1`)).status);
    expect(statuses.slice(0, 31)).toEqual(Array(31).fill(400));
    expect(statuses.slice(31).every((s) => s === 429)).toBe(true);
    // A new address is in the slow lane: told to wait seconds, not hours.
    const fresh = await signIn(h.app, 'popular@example.com', 'right-password', '100.65.0.1');
    expect(fresh.status).toBe(429);
    expect(fresh.body.details[0].retry_after_seconds).toBeLessThanOrEqual(10);
    // The owner's known address is not held up.
    expect((await signIn(h.app, 'popular@example.com', 'right-password', '192.0.2.77')).status).toBe(200);
    // Another account is not affected.
    await h.signUp('quiet@example.com', 'right-password');
    expect((await signIn(h.app, 'quiet@example.com', 'right-password', '100.65.0.1')).status).toBe(200);
  });

  it('holds across two Haul processes on one database', async () => {
    const other = await buildHaul(h.ctx.config, { logger: false });
    try {
      await h.signUp('shared@example.com', 'right-password');
      const statuses: number[] = [];
      for (let i = 0; i < 14; i++) {
        const app = i % 2 ? other.app : h.app;
        statuses.push((await signIn(app, 'shared@example.com', `wrong-${i}-guess`, '203.0.113.90')).status);
      }
      expect(statuses.filter((s) => s === 400).length).toBe(11);
      expect(statuses.slice(11).every((s) => s === 429)).toBe(true);
    } finally {
      await other.app.close();
      await other.ctx.db.destroy();
    }
  });

  it('limits sign-ups per network', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 23; i++) {
      const res = await h.app.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email: `many${i}@example.com`, password: 'long enough' }, remoteAddress: '2001:db8:5:5::1' });
      statuses.push(res.statusCode);
    }
    expect(statuses.filter((s) => s === 200).length).toBe(21);
    expect(statuses.slice(21)).toEqual([429, 429]);
    // Another address in the same /64 shares the count.
    const sameNet = await h.app.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email: 'next@example.com', password: 'long enough' }, remoteAddress: '2001:db8:5:5:ffff::9' });
    expect(sameNet.statusCode).toBe(429);
  });
});
