/**
 * A stolen access token buys nothing lasting: app passwords, device approvals and app consents need a sudo token, and
 * whatever a session made is listed under it and ends when the owner ends that session from another device.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_CODE_GRANT } from '@haul/shared';
import { startTestHaul, sudoToken, type TestHaul } from './helper.js';
import { basic } from './webdav-helper.js';

const PASSWORD = 'correct horse';
const REDIRECT = 'http://127.0.0.1:8123/callback';

describe('credentials born of a session', () => {
  let h: TestHaul;
  let clientId: string;
  beforeAll(async () => {
    h = await startTestHaul();
    const { createClient } = await import('../src/oauth/oauth-clients.js');
    clientId = (await createClient(h.ctx, { name: 'Photo frame', redirectUris: [REDIRECT], confidential: false })).client.id;
  });
  afterAll(() => h?.destroy());

  const signIn = async (email: string) => (await h.api('POST', '/v1/auth/signin', undefined, { username: email, password: PASSWORD })).body;
  const me = async (token: string) => (await h.api('GET', '/v1/user/me', token)).status;
  const dav = async (auth: string) => (await h.app.inject({ method: 'PROPFIND', url: '/dav/', headers: { authorization: auth, depth: '0' } })).statusCode;

  /** Makes an app password from `token`'s session (with a sudo token unless `sudo` is false). */
  const appPassword = (token: string, sudo?: string) => h.api('POST', '/v1/user/app_passwords', token, { name: 'NAS', ...(sudo ? { sudo_token: sudo } : {}) });

  /** A device asks for a code and `token`'s session approves it; answers the device's tokens once it polls. */
  async function approveDevice(token: string, sudo?: string) {
    const code = (await h.api('POST', '/v1/auth/device/code', undefined, { client_name: 'Living room TV' })).body;
    const answer = await h.api('POST', '/v1/user/device/authorize', token, { user_code: code.user_code, approve: true, ...(sudo ? { sudo_token: sudo } : {}) });
    if (answer.status !== 200) return { answer, tokens: null };
    const polled = await h.api('POST', '/v1/auth/token', undefined, { grant_type: DEVICE_CODE_GRANT, device_code: code.device_code });
    return { answer, tokens: polled.body };
  }

  /** `token`'s session allows the app, and the app trades the code for tokens. */
  async function allowApp(token: string, sudo?: string) {
    const verifier = randomBytes(32).toString('base64url');
    const params = {
      client_id: clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'user pan offline',
      state: 'st',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    };
    const answer = await h.api('POST', '/v1/user/authorize', token, { ...params, ...(sudo ? { sudo_token: sudo } : {}) });
    if (answer.status !== 200) return { answer, tokens: null };
    const traded = await h.api('POST', '/v1/auth/token', undefined, { grant_type: 'authorization_code', client_id: clientId, code: answer.body.code, redirect_uri: REDIRECT, code_verifier: verifier });
    return { answer, tokens: traded.body };
  }

  it('asks for a sudo token before making an app password, approving a device or allowing an app', async () => {
    const owner = await h.signUp();
    expect((await appPassword(owner.access_token)).body.error).toBe('invalid_grant');
    expect((await approveDevice(owner.access_token)).answer.body.error).toBe('invalid_grant');
    expect((await allowApp(owner.access_token)).answer.body.error).toBe('invalid_grant');
    // A sudo token of another session of the same account is no better.
    const other = await signIn((await h.api('GET', '/v1/user/me', owner.access_token)).body.email);
    const elsewhere = await sudoToken(h, other.access_token);
    expect((await appPassword(owner.access_token, elsewhere)).body.error).toBe('invalid_grant');
    // Nothing was made.
    expect(await h.ctx.db.selectFrom('app_passwords').select('id').where('user_id', '=', owner.sub).execute()).toEqual([]);
    expect(await h.ctx.db.selectFrom('oauth_consents').select('client_id').where('user_id', '=', owner.sub).execute()).toEqual([]);
    // Refusing a device costs nothing.
    const code = (await h.api('POST', '/v1/auth/device/code', undefined, {})).body;
    expect((await h.api('POST', '/v1/user/device/authorize', owner.access_token, { user_code: code.user_code, approve: false })).status).toBe(200);
  });

  it('lists what a session made under it, and ending that session from another device ends all of it', async () => {
    const laptop = await h.signUp();
    const email = (await h.api('GET', '/v1/user/me', laptop.access_token)).body.email as string;
    const stolen = await signIn(email);
    const sudo = await sudoToken(h, stolen.access_token);

    const made = await appPassword(stolen.access_token, sudo);
    expect(made.status).toBe(200);
    const tv = await approveDevice(stolen.access_token, sudo);
    const app = await allowApp(stolen.access_token, sudo);
    const davAuth = basic(email, made.body.password);
    expect([await me(tv.tokens.access_token), await me(app.tokens.access_token), await dav(davAuth)]).toEqual([200, 200, 207]);

    const sessions = (await h.api('GET', '/v1/user/sessions', laptop.access_token)).body.sessions as { id: string; current: boolean; born: { kind: string; name: string }[] }[];
    const parent = sessions.find((s) => s.born.length)!;
    expect(parent.born.map((b) => [b.kind, b.name]).sort()).toEqual([['app', 'Photo frame'], ['app_password', 'NAS'], ['device', 'Living room TV']]);

    const ended = await h.api('POST', '/v1/user/sessions:end', laptop.access_token, { session_id: parent.id, sudo_token: await sudoToken(h, laptop.access_token) });
    expect(ended.status).toBe(200);
    expect([await me(stolen.access_token), await me(tv.tokens.access_token), await me(app.tokens.access_token), await dav(davAuth)]).toEqual([401, 401, 401, 401]);
    // The app is disconnected and its refresh token dead; the laptop goes on.
    expect((await h.api('GET', '/v1/user/apps', laptop.access_token)).body.apps).toEqual([]);
    expect((await h.api('POST', '/v1/auth/token', undefined, { grant_type: 'refresh_token', refresh_token: app.tokens.refresh_token })).status).toBe(401);
    expect(await me(laptop.access_token)).toBe(200);
  });

  it('a device approved from a session that is ended before the device polls is not signed in', async () => {
    const laptop = await h.signUp();
    const phone = await signIn((await h.api('GET', '/v1/user/me', laptop.access_token)).body.email);
    const code = (await h.api('POST', '/v1/auth/device/code', undefined, {})).body;
    await h.api('POST', '/v1/user/device/authorize', phone.access_token, { user_code: code.user_code, approve: true, sudo_token: await sudoToken(h, phone.access_token) });
    const phoneId = (await h.api('GET', '/v1/user/sessions', laptop.access_token)).body.sessions.find((s: { current: boolean }) => !s.current).id;
    await h.api('POST', '/v1/user/sessions:end', laptop.access_token, { session_id: phoneId, sudo_token: await sudoToken(h, laptop.access_token) });
    const polled = await h.api('POST', '/v1/auth/token', undefined, { grant_type: DEVICE_CODE_GRANT, device_code: code.device_code });
    expect(polled.body.error).toBe('access_denied');
  });

  it('a refresh-token replay ends what the session made too; a plain sign-out keeps it', async () => {
    const owner = await h.signUp();
    const email = (await h.api('GET', '/v1/user/me', owner.access_token)).body.email as string;
    const made = await appPassword(owner.access_token, await sudoToken(h, owner.access_token));
    // Replayed after the grace window: the session was stolen, and what it made goes with it.
    const first = await h.api('POST', '/v1/auth/token', undefined, { grant_type: 'refresh_token', refresh_token: owner.refresh_token });
    expect(first.status).toBe(200);
    await h.ctx.db.updateTable('refresh_tokens').set({ used_at: 1 }).where('user_id', '=', owner.sub).where('used_at', 'is not', null).execute();
    expect((await h.api('POST', '/v1/auth/token', undefined, { grant_type: 'refresh_token', refresh_token: owner.refresh_token })).status).toBe(401);
    expect(await dav(basic(email, made.body.password))).toBe(401);

    // Signing out of one's own browser keeps the app password made there (the NAS stays mounted).
    const laptop = await signIn(email);
    const kept = await appPassword(laptop.access_token, await sudoToken(h, laptop.access_token));
    expect((await h.api('POST', '/v1/auth/revoke', undefined, { token: laptop.refresh_token })).status).toBe(200);
    expect(await me(laptop.access_token)).toBe(401);
    expect(await dav(basic(email, kept.body.password))).toBe(207);
  });

  it('a consent given in this session goes straight through again; one from another session asks for the password', async () => {
    const owner = await h.signUp();
    expect((await allowApp(owner.access_token, await sudoToken(h, owner.access_token))).answer.status).toBe(200);
    expect((await allowApp(owner.access_token)).answer.status).toBe(200);
    const other = await signIn((await h.api('GET', '/v1/user/me', owner.access_token)).body.email);
    expect((await allowApp(other.access_token)).answer.body.error).toBe('invalid_grant');
  });
});
