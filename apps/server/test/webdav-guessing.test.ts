/**
 * WebDAV password guessing: wrong passwords are counted per network and name typed and per network across names; a
 * right one always gets in (140 random bits: looking it up tells a guesser nothing), so a guesser on a network keeps
 * nobody out, and right passwords between guesses win a guesser nothing. Networks are told apart by X-Forwarded-For (the test's loopback connection is a trusted
 * proxy); the clock stands still, so no wait runs out during a test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, startTestHaul, type TestHaul } from './helper.js';
import { appPassword, basic, dav, listen } from './webdav-helper.js';

describe('WebDAV password guessing', () => {
  const clock = new ManualClock(Date.now());
  let h: TestHaul;
  let base: string;
  beforeAll(async () => {
    h = await startTestHaul({ accessTokenTtlSeconds: 365 * 86400 }, clock);
    base = await listen(h);
  });
  afterAll(() => h.destroy());

  const list = async (authorization: string, from: string) => (await dav(base, 'PROPFIND', '/dav/', { authorization, depth: '0', 'x-forwarded-for': from })).status;
  const wrong = (name: string, i: number) => basic(name, `wrong-${i}-guess`);

  it("keeps the owner working after a network's wrong passwords at other names, which stay slowed", async () => {
    const owner = await appPassword(h, await h.signUp());
    const from = '198.51.100.7';
    // Six names, 21 wrong passwords each: past the network's 100 across names.
    const statuses: number[] = [];
    for (let n = 0; n < 6; n++) for (let i = 0; i < 21; i++) statuses.push(await list(wrong(`guess${n}@example.com`, i), from));
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(120);
    // The owner, on the same network, gets in; so does their second device, and after them the guessing is still slowed.
    expect(await list(owner.basic, from)).toBe(207);
    expect(await list(basic(owner.email.toUpperCase(), owner.password), from)).toBe(207);
    expect(await list(wrong('guess0@example.com', 99), from)).toBe(429);
    // A seventh name has its own free tries, but the network's count holds it up past them.
    const seventh: number[] = [];
    for (let i = 0; i < 22; i++) seventh.push(await list(wrong('guess6@example.com', i), from));
    expect(seventh.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(seventh.slice(20)).toEqual([429, 429]);
    expect(await list(owner.basic, from)).toBe(207);
  });

  it('gives a guesser nothing for right passwords between the wrong ones', async () => {
    const victim = await appPassword(h, await h.signUp());
    const guesser = await appPassword(h, await h.signUp());
    const from = '198.51.100.8';
    const atVictim: number[] = [];
    for (let i = 0; i < 30; i++) {
      atVictim.push(await list(wrong(victim.email, i), from));
      expect(await list(guesser.basic, from)).toBe(207);
    }
    // 20 free and the 21st that starts the waits, as without the right ones between.
    expect(atVictim.filter((s) => s === 401).length).toBe(21);
    expect(atVictim.slice(21).every((s) => s === 429)).toBe(true);
    // The victim's own right password gets in from that network too, and the guessing there stays slowed.
    expect(await list(victim.basic, from)).toBe(207);
    expect(await list(victim.basic, '198.51.100.9')).toBe(207);
    expect(await list(wrong(victim.email, 99), from)).toBe(429);
  });

  it('counts a burst of wrong passwords one after another, and lets a burst of right ones in', async () => {
    const who = await appPassword(h, await h.signUp());
    const all = await Promise.all(Array.from({ length: 40 }, (_, i) => list(wrong(who.email, i), '203.0.113.40')));
    expect(all.filter((s) => s === 401).length).toBe(21);
    expect(all.filter((s) => s === 429).length).toBe(19);
    // A client's burst with the right password, as rclone and Finder send, after the guesses: every request gets in.
    const right = await Promise.all(Array.from({ length: 40 }, () => list(who.basic, '203.0.113.40')));
    expect(right).toEqual(Array(40).fill(207));
  });
});
