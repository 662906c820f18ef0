/** Sessions: every way a session ends ends its access tokens, refresh tokens and download links at once. */
import { SignJWT } from 'jose';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setDisabled, setPassword } from '../src/accounts/accounts.service.js';
import { REFRESH_REUSE_GRACE_MS } from '../src/accounts/tokens.js';
import { ManualClock, startTestHaul, type TestHaul } from './helper.js';

describe('sessions', () => {
  let h: TestHaul;
  const clock = new ManualClock(Date.now());
  beforeAll(async () => {
    h = await startTestHaul({}, clock);
  });
  afterAll(() => h.destroy());

  const me = async (token: string) => (await h.api('GET', '/v1/user/me', token)).status;
  /** A tus call with this token: 404 (no such upload) means the token was accepted. */
  const tusHead = async (token: string) => {
    const res = await h.app.inject({ method: 'HEAD', url: '/drive/v1/uploads/AAAAAAAAAAAAAAAAAAAA', headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' } });
    return res.statusCode;
  };
  const refresh = (token: string) => h.api('POST', '/v1/auth/token', undefined, { grant_type: 'refresh_token', refresh_token: token });
  const signIn = (email: string, password = 'correct horse') => h.api('POST', '/v1/auth/signin', undefined, { username: email, password });
  const downloadLink = async (token: string) => {
    const f = await h.putFile({ sub: (await h.api('GET', '/v1/user/me', token)).body.sub } as never, '', `f-${Math.random()}.txt`, 'bytes');
    return (await h.api('GET', `/drive/v1/files/${f.id}`, token)).body.web_content_link as string;
  };
  const download = async (link: string) => (await h.app.inject({ method: 'GET', url: new URL(link).pathname + new URL(link).search })).statusCode;

  it('sign-out everywhere ends access tokens (API and tus), refresh tokens and download links of every session at once', async () => {
    const email = 'everywhere@example.com';
    const first = await h.signUp(email);
    const second = (await signIn(email)).body;
    const link = await downloadLink(first.access_token);
    expect([await me(first.access_token), await me(second.access_token), await tusHead(second.access_token), await download(link)]).toEqual([200, 200, 404, 200]);

    expect((await h.api('DELETE', '/v1/user/sessions', second.access_token)).status).toBe(200);

    expect(await me(first.access_token)).toBe(401);
    expect(await me(second.access_token)).toBe(401);
    expect(await tusHead(first.access_token)).toBe(401);
    expect((await refresh(first.refresh_token)).status).toBe(401);
    expect(await download(link)).toBe(404);
    // A new sign-in works, and its links too.
    const again = (await signIn(email)).body;
    expect(await me(again.access_token)).toBe(200);
    expect(await download(await downloadLink(again.access_token))).toBe(200);
  });

  it('sign-out everywhere ends thumbnail and media links too', async () => {
    const first = await h.signUp('media-links@example.com');
    const owner = { sub: first.sub } as never;
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a7' } }).png().toBuffer();
    await h.putFile(owner, '', 'picture.png', png);
    // One second of silence as 8 kHz 8-bit mono WAV: an audio file whose original plays through a media link.
    const pcm = Buffer.alloc(8000, 128);
    const wav = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt '), Buffer.from([16, 0, 0, 0, 1, 0, 1, 0, 0x40, 0x1f, 0, 0, 0x40, 0x1f, 0, 0, 1, 0, 8, 0]), Buffer.from('data'), Buffer.alloc(4), pcm]);
    wav.writeUInt32LE(wav.length - 8, 4);
    wav.writeUInt32LE(pcm.length, 40);
    const song = await h.putFile(owner, '', 'tone.wav', wav);
    const listed = (await h.api('GET', '/drive/v1/files?parent_id=', first.access_token)).body.files as { name: string; thumbnail_link: string }[];
    const thumb = listed.find((f) => f.name === 'picture.png')!.thumbnail_link;
    const media = (await h.api('GET', `/drive/v1/files/${song.id}`, first.access_token)).body.medias[0].link.url as string;
    expect([await download(thumb), await download(media)]).toEqual([200, 200]);

    expect((await h.api('DELETE', '/v1/user/sessions', first.access_token)).status).toBe(200);
    expect([await download(thumb), await download(media)]).toEqual([404, 404]);
  });

  it('a password change or a disabled account ends every session at once', async () => {
    const a = await h.signUp('changed@example.com');
    await setPassword(h.ctx, a.sub, 'a brand new password');
    expect(await me(a.access_token)).toBe(401);
    expect(await tusHead(a.access_token)).toBe(401);
    expect((await refresh(a.refresh_token)).status).toBe(401);

    const b = await h.signUp('disabled@example.com');
    const link = await downloadLink(b.access_token);
    await setDisabled(h.ctx, b.sub, true);
    expect(await me(b.access_token)).toBe(401);
    expect(await download(link)).toBe(404);
    const refused = await signIn('disabled@example.com');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('permission_denied');
    await setDisabled(h.ctx, b.sub, false);
    expect((await signIn('disabled@example.com')).status).toBe(200);
  });

  it('signing out one session leaves the others', async () => {
    const email = 'one-of-two@example.com';
    const phone = await h.signUp(email);
    const laptop = (await signIn(email)).body;
    expect((await h.api('POST', '/v1/auth/revoke', undefined, { token: phone.refresh_token })).status).toBe(200);
    expect(await me(phone.access_token)).toBe(401);
    expect(await me(laptop.access_token)).toBe(200);
  });

  it('a refresh token used again after the grace window ends its whole session, the tokens issued from it included', async () => {
    const t = await h.signUp();
    const thief = await refresh(t.refresh_token);
    expect(thief.status).toBe(200);
    clock.advance(REFRESH_REUSE_GRACE_MS + 1);
    // The owner's client, still holding the old token, replays it: the server cannot tell who is who, so both lose.
    const replay = await refresh(t.refresh_token);
    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await refresh(thief.body.refresh_token)).status).toBe(401);
    expect(await me(thief.body.access_token)).toBe(401);
    expect(await me(t.access_token)).toBe(401);
  });

  it('a second use within the grace window (the first answer was lost) gets the same successor again, so no holder is cut off', async () => {
    const t = await h.signUp();
    const lost = (await refresh(t.refresh_token)).body;
    clock.advance(REFRESH_REUSE_GRACE_MS - 1000);
    const again = await refresh(t.refresh_token);
    expect(again.status).toBe(200);
    // Idempotent: a replay inside the window cannot mint a token of its own and delete the other holder's.
    expect(again.body.refresh_token).toBe(lost.refresh_token);
    expect(await me(again.body.access_token)).toBe(200);
    expect(await me(lost.access_token)).toBe(200);
    const next = await refresh(lost.refresh_token);
    expect(next.status).toBe(200);
    expect(await me(next.body.access_token)).toBe(200);
  });

  it('a second use within the grace window after its successor was used is a replay', async () => {
    const t = await h.signUp();
    const first = (await refresh(t.refresh_token)).body;
    expect((await refresh(first.refresh_token)).status).toBe(200);
    const replay = await refresh(t.refresh_token);
    expect(replay.status).toBe(401);
    expect(await me(first.access_token)).toBe(401);
  });

  it('two uses of one refresh token at once leave one chain of refresh tokens', async () => {
    const t = await h.signUp();
    const both = await Promise.all([refresh(t.refresh_token), refresh(t.refresh_token)]);
    const answered = new Set(both.filter((r) => r.status === 200).map((r) => r.body.refresh_token as string));
    // Both answers, when both came, carry the one successor: a single chain goes on.
    expect(answered.size).toBeLessThanOrEqual(1);
    for (const token of answered) expect((await refresh(token)).status).toBe(200);
  });

  it('refuses access tokens without an expiry or a session, even when signed with the right key', async () => {
    const t = await h.signUp();
    const sid = JSON.parse(Buffer.from(t.access_token.split('.')[1]!, 'base64url').toString()).sid as string;
    const sign = (claims: Record<string, unknown>, exp: boolean) => {
      let jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject(t.sub).setIssuer('haul').setAudience('haul-api').setIssuedAt();
      if (exp) jwt = jwt.setExpirationTime('1h');
      return jwt.sign(h.ctx.secrets.tokenKey);
    };
    expect(await me(await sign({ sid }, true))).toBe(200);
    expect(await me(await sign({ sid }, false))).toBe(401);
    expect(await me(await sign({}, true))).toBe(401);
    expect(await me(await sign({ sid: 'not-a-session' }, true))).toBe(401);
    // Issued in the future (by the server's own key): only a forger or a clock gone back makes one.
    const now = Math.floor(clock.now() / 1000);
    const at = (iat: number) => new SignJWT({ sid }).setProtectedHeader({ alg: 'HS256' }).setSubject(t.sub).setIssuer('haul').setAudience('haul-api').setIssuedAt(iat).setExpirationTime(iat + 3600).sign(h.ctx.secrets.tokenKey);
    expect(await me(await at(now + 600))).toBe(401);
    expect(await me(await at(now + 30))).toBe(200);
  });

  it('names the account of verified tokens only, for the turns between clients, and forgets them at expiry', async () => {
    const { verifiedTokenAccount } = await import('../src/http/access-tokens.js');
    const email = 'turns@example.com';
    const first = await h.signUp(email);
    const second = (await signIn(email)).body;
    const forged = await new SignJWT({ sid: 'x' }).setProtectedHeader({ alg: 'HS256' }).setSubject(first.sub).setIssuer('haul').setAudience('haul-api').setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode('not the key of this server at all'));
    for (const t of [first.access_token, second.access_token]) expect(await me(t)).toBe(200);
    expect(await me(forged)).toBe(401);
    // Both sessions' tokens name the account; a token claiming it without the key names nothing.
    expect(verifiedTokenAccount(h.ctx, first.access_token)).toBe(first.sub);
    expect(verifiedTokenAccount(h.ctx, second.access_token)).toBe(first.sub);
    expect(verifiedTokenAccount(h.ctx, forged)).toBeUndefined();
    expect(verifiedTokenAccount(h.ctx, 'never.seen.token')).toBeUndefined();
    clock.advance((first.expires_in as number) * 1000);
    expect(verifiedTokenAccount(h.ctx, first.access_token)).toBeUndefined();
  });

  it('drops ended sessions and used refresh tokens in the hourly purge', async () => {
    const { purgeSessions } = await import('../src/accounts/tokens.js');
    const t = await h.signUp();
    await refresh(t.refresh_token);
    const before = await h.ctx.db.selectFrom('refresh_tokens').select('id').where('user_id', '=', t.sub).execute();
    expect(before.length).toBe(2);
    await h.ctx.db.updateTable('sessions').set({ expires_at: 1 }).where('user_id', '=', t.sub).execute();
    expect(await purgeSessions(h.ctx)).toBeGreaterThanOrEqual(1);
    expect(await h.ctx.db.selectFrom('refresh_tokens').select('id').where('user_id', '=', t.sub).execute()).toEqual([]);
  });
});
