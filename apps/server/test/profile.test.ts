/**
 * The profile: the display name and a built-in avatar, refused with nothing changed when either is bad, and the
 * connected sign-in providers listed in the user info.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AVATAR_IDS } from '@haul/shared';
import { newId } from '../src/lib/ids.js';
import { startTestHaul, type TestHaul } from './helper.js';

describe('the profile', () => {
  let h: TestHaul;
  beforeAll(async () => {
    h = await startTestHaul({
      oidcProviders: [{ id: 'acme', name: 'Acme ID', issuer: 'https://id.acme.test', clientId: 'haul', clientSecret: '', scopes: ['openid'] }],
    });
  });
  afterAll(() => h?.destroy());

  const me = async (token: string) => (await h.api('GET', '/v1/user/me', token)).body;
  const patch = (token: string, body: unknown) => h.api('PATCH', '/v1/user/profile', token, body);

  it('changes the name and the avatar, and offers the built-in avatars only', async () => {
    const a = await h.signUp('profile-a@example.com');
    const avatars = (await h.api('GET', '/v1/user/avatars', a.access_token)).body.avatars;
    expect(avatars).toHaveLength(AVATAR_IDS.length);
    expect(avatars[2]).toEqual({ id: 'avatar:3', url: '/drive/avatars/3.svg' });

    const changed = await patch(a.access_token, { name: '  Ada Lovelace  ', picture: 'avatar:3' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: 'Ada Lovelace', picture: '/drive/avatars/3.svg' });
    expect(await me(a.access_token)).toMatchObject({ name: 'Ada Lovelace', picture: '/drive/avatars/3.svg' });
    // One field alone leaves the other as it was; "" takes the avatar away.
    expect((await patch(a.access_token, { name: '艾达 😀' })).body).toMatchObject({ name: '艾达 😀', picture: '/drive/avatars/3.svg' });
    expect((await patch(a.access_token, { picture: '' })).body).toMatchObject({ name: '艾达 😀', picture: '' });
  });

  it('refuses bad names and pictures that are not built in, changing nothing', async () => {
    const b = await h.signUp('profile-b@example.com');
    await patch(b.access_token, { name: 'Bea', picture: 'avatar:1' });
    const bad: unknown[] = [
      {},
      { name: '   ' },
      { name: 'x'.repeat(65) },
      { name: 'line\nbreak' },
      { name: 'bell\u0007' },
      { name: 'evil\u202etxt.exe' },
      { name: 42 },
      { picture: 'https://attacker.example/a.svg' },
      { picture: '/drive/avatars/2.svg' },
      { picture: 'avatar:0' },
      { picture: `avatar:${AVATAR_IDS.length + 1}` },
      // A good name with a bad picture changes neither.
      { name: 'Good Name', picture: 'data:image/svg+xml,<svg onload=alert(1)>' },
    ];
    for (const body of bad) {
      const r = await patch(b.access_token, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toBe('invalid_argument');
      expect(r.body.error_description).toBeTruthy();
    }
    expect(await me(b.access_token)).toMatchObject({ name: 'Bea', picture: '/drive/avatars/1.svg' });
    expect((await patch(b.access_token, { name: 'x'.repeat(64) })).status).toBe(200);
  });

  it('lists the connected sign-in providers by the names the operator gives them', async () => {
    const c = await h.signUp('profile-c@example.com');
    expect((await me(c.access_token)).providers).toEqual([]);
    const link = (providerId: string, at: number) => ({ id: newId(), user_id: c.sub, provider_id: providerId, issuer: `https://${providerId}.test`, subject: newId(), email: '', created_at: at });
    await h.ctx.db.insertInto('provider_links').values([link('acme', 1), link('retired', 2)]).execute();
    expect((await me(c.access_token)).providers).toEqual([
      { id: 'acme', name: 'Acme ID' },
      { id: 'retired', name: 'retired' },
    ]);
    expect((await patch(c.access_token, { name: 'Cy' })).body.providers).toHaveLength(2);
  });
});
