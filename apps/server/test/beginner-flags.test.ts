/**
 * The new-person flags of user info: first_login (the call comes through a sign-in begun on the account's first day)
 * and has_beginner_task_rights (the guide is offered, the account was made after 2023-02-14 and has not finished it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, startTestHaul, type TestHaul } from './helper.js';

const HOUR = 3600_000;

describe('user info first_login and has_beginner_task_rights', () => {
  const clock = new ManualClock();
  let h: TestHaul;
  const me = async (token: string) => (await h.api('GET', '/v1/user/me', token)).body;
  const signIn = async (email: string) => (await h.api('POST', '/v1/auth/signin', undefined, { username: email, password: 'correct horse' })).body.access_token as string;

  beforeAll(async () => {
    h = await startTestHaul({ accessTokenTtlSeconds: 30 * 86400, refreshTokenTtlSeconds: 30 * 86400 }, clock);
  });
  afterAll(() => h?.destroy());

  it("the sign-up's own sign-in is a first login; one begun after the first day is not, while the first one still is", async () => {
    const signedUp = (await h.signUp('new@example.com')).access_token;
    expect(await me(signedUp)).toMatchObject({ first_login: true, has_beginner_task_rights: true, in_beginner_guide: true });

    clock.advance(2 * HOUR);
    const sameDay = await signIn('new@example.com');
    expect((await me(sameDay)).first_login).toBe(true);

    clock.advance(23 * HOUR);
    const nextDay = await signIn('new@example.com');
    expect(await me(nextDay)).toMatchObject({ first_login: false, has_beginner_task_rights: true, in_beginner_guide: true });
    expect((await me(signedUp)).first_login).toBe(true);
  });

  it('finishing or skipping the guide (beginner_guide_done) ends the beginner task rights; undoing it gives them back', async () => {
    const t = (await h.signUp('guide@example.com')).access_token;
    const save = (value: boolean) => h.api('POST', '/v1/user/settings', t, { item: 'beginner_guide_done', value });
    expect((await save(true)).status).toBe(200);
    expect(await me(t)).toMatchObject({ has_beginner_task_rights: false, first_login: true });
    expect((await save(false)).status).toBe(200);
    expect((await me(t)).has_beginner_task_rights).toBe(true);
  });

  it('an account made on or before 2023-02-14 has no beginner task rights; one made the next day has', async () => {
    const old = await h.signUp('old@example.com');
    const young = await h.signUp('young@example.com');
    await h.ctx.db.updateTable('users').set({ created_at: Date.UTC(2023, 1, 14, 23, 59) }).where('id', '=', old.sub).execute();
    await h.ctx.db.updateTable('users').set({ created_at: Date.UTC(2023, 1, 15) }).where('id', '=', young.sub).execute();
    expect(await me(old.access_token)).toMatchObject({ has_beginner_task_rights: false, first_login: false, in_beginner_guide: false });
    expect((await me(young.access_token)).has_beginner_task_rights).toBe(true);
  });

  it('without the beginner guide (HAUL_BEGINNER_GUIDE=false) no account has beginner task rights', async () => {
    const off = await startTestHaul({ beginnerGuide: false });
    try {
      const t = (await off.signUp()).access_token;
      expect((await off.api('GET', '/v1/user/me', t)).body).toMatchObject({ has_beginner_task_rights: false, in_beginner_guide: false, first_login: true });
    } finally {
      await off.destroy();
    }
  });
});
