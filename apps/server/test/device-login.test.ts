/**
 * Device sign-in (RFC 8628) and the signed-in devices list: the poll's answers and pace on a clock the test moves,
 * a standard OAuth client library and our own client polling a real server, wrong codes throttled in the database,
 * and signing one device out.
 */
import * as oauth from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HaulClient, signInWithDevice, slowerInterval } from '@haul/client';
import { DEVICE_CODE_GRANT } from '@haul/shared';
import { ManualClock, startTestHaul, sudoToken, type TestHaul } from './helper.js';

const TV = 'Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/76.0.3809.146 TV Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

async function start(h: TestHaul, body: object = { client_name: 'Living room TV' }, ua = TV) {
  const res = await h.app.inject({ method: 'POST', url: '/v1/auth/device/code', headers: { 'user-agent': ua }, payload: body });
  expect(res.statusCode).toBe(200);
  return res.json() as { device_code: string; user_code: string; verification_uri: string; verification_uri_complete: string; interval: number; expires_in: number };
}

const poll = (h: TestHaul, deviceCode: string) => h.api('POST', '/v1/auth/token', undefined, { grant_type: DEVICE_CODE_GRANT, device_code: deviceCode });

describe('device sign-in on a clock the test moves', () => {
  const clock = new ManualClock();
  let h: TestHaul;
  beforeAll(async () => {
    h = await startTestHaul({}, clock);
  });
  afterAll(() => h?.destroy());

  it('answers pending, slows a fast poller for good, and signs the device in once approved', async () => {
    const owner = await h.signUp();
    const code = await start(h);
    expect(code.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(code.verification_uri).toBe('http://haul.test/drive/qr-login');
    expect(code.verification_uri_complete).toBe(`http://haul.test/drive/qr-login?code=${code.user_code}`);
    expect(code.interval).toBe(5);

    expect((await poll(h, code.device_code)).body.error).toBe('authorization_pending');
    clock.advance(2000);
    const fast = await poll(h, code.device_code);
    expect([fast.status, fast.body.error]).toEqual([400, 'slow_down']);
    // The interval is now 10 s: 6 s later is still too fast, 10 s later is fine.
    clock.advance(6000);
    expect((await poll(h, code.device_code)).body.error).toBe('slow_down');
    clock.advance(15_000);
    expect((await poll(h, code.device_code)).body.error).toBe('authorization_pending');

    // The approval screen reads the code however it is typed.
    const typed = code.user_code.toLowerCase().replace('-', ' ');
    const info = await h.api('GET', `/v1/user/device/authorize?user_code=${encodeURIComponent(typed)}`, owner.access_token);
    expect(info.status).toBe(200);
    expect(info.body.client_name).toBe('Living room TV');
    expect(info.body.user_agent).toBe(TV);
    // Approving signs a device in for a month: a stolen access token alone cannot.
    expect((await h.api('POST', '/v1/user/device/authorize', owner.access_token, { user_code: typed, approve: true })).body.error).toBe('invalid_grant');
    expect((await h.api('POST', '/v1/user/device/authorize', owner.access_token, { user_code: typed, approve: true, sudo_token: await sudoToken(h, owner.access_token) })).status).toBe(200);
    // Answered once: the code is gone from the approval screen.
    expect((await h.api('GET', `/v1/user/device/authorize?user_code=${code.user_code}`, owner.access_token)).status).toBe(404);

    clock.advance(20_000);
    const signed = await poll(h, code.device_code);
    expect(signed.status).toBe(200);
    expect(signed.body.sub).toBe(owner.sub);
    const me = await h.api('GET', '/v1/user/me', signed.body.access_token);
    expect(me.body.sub).toBe(owner.sub);
    // One session, named as the device named itself.
    const list = await h.api('GET', '/v1/user/sessions', owner.access_token);
    expect(list.body.sessions.map((s: { device: string }) => s.device)).toContain('Living room TV');

    clock.advance(20_000);
    expect((await poll(h, code.device_code)).body.error).toBe('invalid_grant');
  });

  it('tells the device when the person refused, and when the code ran out', async () => {
    const owner = await h.signUp();
    const refused = await start(h);
    await h.api('POST', '/v1/user/device/authorize', owner.access_token, { user_code: refused.user_code, approve: false });
    expect((await poll(h, refused.device_code)).body.error).toBe('access_denied');

    const late = await start(h);
    clock.advance(late.expires_in * 1000 + 1);
    expect((await poll(h, late.device_code)).body.error).toBe('expired_token');
    expect((await h.api('POST', '/v1/user/device/authorize', owner.access_token, { user_code: late.user_code, approve: true, sudo_token: await sudoToken(h, owner.access_token) })).status).toBe(404);
    expect((await poll(h, 'not-a-device-code')).body.error).toBe('invalid_grant');
  });

  it('throttles wrong codes per account in the database, and the right code still works after the wait', async () => {
    const guesser = await h.signUp();
    const code = await start(h);
    let status = 0;
    for (let i = 0; i < 12 && status !== 429; i++) {
      status = (await h.api('GET', `/v1/user/device/authorize?user_code=BBBB-BB${'BCDFGHJKLMNP'[i]}B`, guesser.access_token)).status;
      if (status !== 429) expect(status).toBe(404);
    }
    expect(status).toBe(429);
    // The limit is a row in the database, not this process's memory.
    const row = await h.ctx.db.selectFrom('attempt_limits').select('count').where('key', '=', `device-code|u:${guesser.sub}`).executeTakeFirst();
    expect(row?.count).toBeGreaterThan(10);
    // A live code is still found (looking one up is not a guess), and after the wait wrong ones are answered again.
    expect((await h.api('GET', `/v1/user/device/authorize?user_code=${code.user_code}`, guesser.access_token)).status).toBe(200);
    clock.advance(10_000);
    expect((await h.api('GET', '/v1/user/device/authorize?user_code=BBBB-BBBB', guesser.access_token)).status).toBe(404);
  });

  it('refuses bad input without changing anything', async () => {
    const owner = await h.signUp();
    expect((await h.api('POST', '/v1/auth/token', undefined, { grant_type: DEVICE_CODE_GRANT })).body.error).toBe('invalid_argument');
    expect((await h.api('POST', '/v1/user/device/authorize', owner.access_token, { user_code: 'x'.repeat(50), approve: true })).status).toBe(400);
    expect((await h.api('POST', '/v1/user/device/authorize', undefined, { user_code: 'BBBB-BBBB', approve: true })).status).toBe(401);
  });
});

describe('signed-in devices', () => {
  let h: TestHaul;
  beforeAll(async () => {
    h = await startTestHaul();
  });
  afterAll(() => h?.destroy());

  const signIn = async (email: string, ua: string) =>
    (await h.app.inject({ method: 'POST', url: '/v1/auth/signin', headers: { 'user-agent': ua }, payload: { username: email, password: 'correct horse' } })).json();

  it('lists each session by its browser and signs one out with a sudo token', async () => {
    const email = 'devices@example.com';
    await h.signUp(email);
    const laptop = await signIn(email, FIREFOX);
    const phone = await signIn(email, 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1');
    const list = await h.api('GET', '/v1/user/sessions', laptop.access_token);
    expect(list.status).toBe(200);
    const byDevice = Object.fromEntries(list.body.sessions.map((s: { device: string; current: boolean; id: string }) => [s.device, s]));
    expect(byDevice['Firefox on Windows'].current).toBe(true);
    expect(byDevice['Safari on iOS'].current).toBe(false);
    expect(list.body.sessions).toHaveLength(3);

    const phoneId = byDevice['Safari on iOS'].id;
    // Without a sudo token of this session, nothing happens.
    expect((await h.api('POST', '/v1/user/sessions:end', laptop.access_token, { session_id: phoneId, sudo_token: 'nope' })).body.error).toBe('invalid_grant');
    expect((await h.api('GET', '/v1/user/me', phone.access_token)).status).toBe(200);

    const sudo = (await h.api('POST', '/v1/user/sudo', laptop.access_token, { password: 'correct horse' })).body.sudo_token;
    expect((await h.api('POST', '/v1/user/sessions:end', laptop.access_token, { session_id: byDevice['Firefox on Windows'].id, sudo_token: sudo })).body.error).toBe('invalid_argument');
    expect((await h.api('POST', '/v1/user/sessions:end', laptop.access_token, { session_id: phoneId, sudo_token: sudo })).status).toBe(200);
    expect((await h.api('GET', '/v1/user/me', phone.access_token)).status).toBe(401);
    expect((await h.api('POST', '/v1/auth/token', undefined, { grant_type: 'refresh_token', refresh_token: phone.refresh_token })).status).toBe(401);
    expect((await h.api('GET', '/v1/user/me', laptop.access_token)).status).toBe(200);
    expect((await h.api('POST', '/v1/user/sessions:end', laptop.access_token, { session_id: phoneId, sudo_token: sudo })).status).toBe(404);
  });

  it("cannot see or end another account's sessions", async () => {
    const a = await h.signUp();
    const b = await h.signUp();
    const bSessions = (await h.api('GET', '/v1/user/sessions', b.access_token)).body.sessions;
    const aSessions = (await h.api('GET', '/v1/user/sessions', a.access_token)).body.sessions;
    expect(aSessions.map((s: { id: string }) => s.id)).not.toContain(bSessions[0].id);
    const sudo = (await h.api('POST', '/v1/user/sudo', a.access_token, { password: 'correct horse' })).body.sudo_token;
    expect((await h.api('POST', '/v1/user/sessions:end', a.access_token, { session_id: bSessions[0].id, sudo_token: sudo })).status).toBe(404);
    expect((await h.api('GET', '/v1/user/me', b.access_token)).status).toBe(200);
  });
});

describe('device sign-in over HTTP with real clients', () => {
  let h: TestHaul;
  let base: string;
  beforeAll(async () => {
    h = await startTestHaul({ devicePollIntervalSeconds: 1 });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
  });
  afterAll(() => h?.destroy());

  it('a standard OAuth client library (openid-client) polls in form bodies until approved', async () => {
    const owner = await h.signUp();
    const config = new oauth.Configuration(
      { issuer: base, token_endpoint: `${base}/v1/auth/token`, device_authorization_endpoint: `${base}/v1/auth/device/code` },
      'living-room-tv',
      undefined,
      oauth.None(),
    );
    oauth.allowInsecureRequests(config);
    const started = await oauth.initiateDeviceAuthorization(config, {});
    expect(started.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    const approving = (async () => {
      await new Promise((r) => setTimeout(r, 1500));
      const res = await h.api('POST', '/v1/user/device/authorize', owner.access_token, { user_code: started.user_code, approve: true, sudo_token: await sudoToken(h, owner.access_token) });
      expect(res.status).toBe(200);
    })();
    const tokens = await oauth.pollDeviceAuthorizationGrant(config, started);
    await approving;
    expect((await h.api('GET', '/v1/user/me', tokens.access_token)).status).toBe(200);
    expect(tokens.refresh_token).toBeTruthy();
  });

  it('our client honours slow_down: polled too soon, it doubles its interval and still signs in', async () => {
    const owner = await h.signUp();
    const client = new HaulClient({ baseUrl: base });
    const waits: number[] = [];
    let userCode = '';
    const tokens = await signInWithDevice(client, {
      clientName: 'Test script',
      onCode: (code) => {
        userCode = code.user_code;
      },
      // The first two waits are cut short, as a device with a fast clock would do: the second poll comes too soon and
      // the server answers slow_down. The person approves during the third, longer wait.
      sleep: async (ms) => {
        waits.push(ms);
        if (waits.length < 3) return;
        const res = await h.api('POST', '/v1/user/device/authorize', owner.access_token, { user_code: userCode, approve: true, sudo_token: await sudoToken(h, owner.access_token) });
        expect(res.status).toBe(200);
        await new Promise((r) => setTimeout(r, ms));
      },
    });
    expect(waits).toEqual([1000, 1000, slowerInterval(1000)]);
    expect(tokens.sub).toBe(owner.sub);
    expect(await client.call('getMe')).toMatchObject({ sub: owner.sub });
  });
});
