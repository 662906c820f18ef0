/**
 * Settings that follow a person between browsers: written per item, read back by another session, each value checked
 * against its item's shape (a bad one changes nothing, the other items of the write included), kept per account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHaul, type TestHaul } from './helper.js';

describe('user settings', () => {
  let h: TestHaul;
  beforeAll(async () => {
    h = await startTestHaul();
  });
  afterAll(() => h.destroy());

  const mode = { orderType: 'NAME_ASC', pinFoldersTop: false, viewType: 'list', last_modified: 1 };
  const display = { global: mode, orderSettingGlobal: false, viewSettingGlobal: true, byKey: { 'all:abc': { ...mode, orderType: 'TYPE_DESC' } } };

  it('keeps each item for the account and gives it to its other sessions', async () => {
    const a = await h.signUp('settings@example.com');
    expect((await h.api('GET', '/v1/user/settings', a.access_token)).body).toEqual({ settings: [] });
    const saved = await h.api('POST', '/v1/user/settings', a.access_token, { item: 'display_mode', value: display });
    expect(saved.status).toBe(200);
    expect(saved.body.settings).toEqual([{ item: 'display_mode', value: display, updated_at: expect.any(String) }]);
    await h.api('POST', '/v1/user/settings', a.access_token, { items: [{ item: 'search_history', value: ['tax', 'holiday'] }, { item: 'preview_bar_visible', value: false }, { item: 'max_parallel_uploads', value: 5 }] });

    // Another browser: a new sign-in.
    const other = (await h.api('POST', '/v1/auth/signin', undefined, { username: 'settings@example.com', password: 'correct horse' })).body;
    const all = (await h.api('GET', '/v1/user/settings', other.access_token)).body.settings;
    expect(all.map((s: any) => [s.item, s.value])).toEqual([
      ['display_mode', display],
      ['max_parallel_uploads', 5],
      ['preview_bar_visible', false],
      ['search_history', ['tax', 'holiday']],
    ]);
    const some = (await h.api('GET', '/v1/user/settings?items=search_history,preview_bar_visible', other.access_token)).body.settings;
    expect(some.map((s: any) => s.item)).toEqual(['preview_bar_visible', 'search_history']);
    // The last write wins.
    await h.api('POST', '/v1/user/settings', other.access_token, { item: 'search_history', value: ['new'] });
    expect((await h.api('GET', '/v1/user/settings?items=search_history', a.access_token)).body.settings[0].value).toEqual(['new']);

    // Another account sees none of it.
    const b = await h.signUp();
    expect((await h.api('GET', '/v1/user/settings', b.access_token)).body).toEqual({ settings: [] });
  });

  it('refuses unknown items and values of the wrong shape, writing nothing', async () => {
    const t = await h.signUp();
    const bad = [
      { item: 'theme', value: 'dark' },
      { item: 'search_history', value: ['a', 'b', 'c', 'd'] },
      { item: 'search_history', value: 'tax' },
      { item: 'display_mode', value: { ...display, global: { ...mode, orderType: 'RANDOM' } } },
      { item: 'preview_bar_visible', value: 'yes' },
      { item: 'max_parallel_uploads', value: 11 },
      { item: 'max_parallel_uploads', value: 2.5 },
      { item: 'preview_bar_visible' },
      { items: [{ item: 'preview_bar_visible', value: true }, { item: 'search_history', value: [''] }] },
      {},
    ];
    for (const body of bad) {
      const r = await h.api('POST', '/v1/user/settings', t.access_token, body);
      expect([r.status, r.body.error], JSON.stringify(body)).toEqual([400, 'invalid_argument']);
    }
    const r = await h.api('POST', '/v1/user/settings', t.access_token, { item: 'display_mode', value: { ...display, global: { ...mode, orderType: 'RANDOM' } } });
    expect(r.body.error_description).toMatch(/display_mode.*\/global\/orderType/);
    expect((await h.api('GET', '/v1/user/settings?items=nope', t.access_token)).status).toBe(400);
    expect((await h.api('GET', '/v1/user/settings', t.access_token)).body).toEqual({ settings: [] });
    // Too many per-folder modes: more than the app ever keeps.
    const byKey = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`all:${i}`, mode]));
    expect((await h.api('POST', '/v1/user/settings', t.access_token, { item: 'display_mode', value: { ...display, byKey } })).status).toBe(400);
  });
});
