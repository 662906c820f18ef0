/**
 * Usage statistics: the apps' events are counted per day (the operator's time zone) and name, from anyone, nothing
 * about who; unknown names and oversized batches are refused and count nothing; the operator reads them with haul-admin.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recentCounts } from '../src/stats/stat-counts.js';
import { ManualClock, startTestHaul, type TestHaul } from './helper.js';
import { ADMIN_MAIN } from './child-server.js';

const run = promisify(execFile);

describe('usage statistics', () => {
  let h: TestHaul;
  // 23:30 on 1 December in Tokyo is still 1 December there, 14:30 UTC.
  const clock = new ManualClock(Date.parse('2026-12-01T14:30:00Z'));
  beforeAll(async () => {
    h = await startTestHaul({ timeZone: 'Asia/Tokyo' }, clock);
  });
  afterAll(() => h.destroy());

  const report = (data: unknown, tok?: string) => h.api('POST', '/drive/v1/stats', tok, { client: 'web', data });
  const counts = async () => Object.fromEntries((await recentCounts(h.ctx.db, clock.now(), 'Asia/Tokyo', 3)).map((r) => [`${r.day} ${r.event}`, r.count]));

  it('counts events per day and name, signed in or not', async () => {
    expect((await report([{ event: 'play_limited_show' }, { event: 'play_limited_show' }, { event: 'play_limited_click', count: 3 }])).body).toEqual({ counted: 5 });
    const t = await h.signUp();
    expect((await report([{ event: 'play_limited_show' }], t.access_token)).body).toEqual({ counted: 1 });
    clock.advance(60 * 60_000); // 00:30 on 2 December in Tokyo
    await report([{ event: 'local_upload_failed' }]);
    expect(await counts()).toEqual({
      '2026-12-01 play_limited_show': 3,
      '2026-12-01 play_limited_click': 3,
      '2026-12-02 local_upload_failed': 1,
    });
  });

  it('refuses unknown names, counts out of range and oversized batches, counting nothing', async () => {
    const before = await counts();
    for (const data of [[{ event: 'play_limited_show' }, { event: 'rm -rf' }], [{ event: 'play_limited_show', count: 1000 }], Array(51).fill({ event: 'play_limited_show' }), []]) {
      const r = await report(data);
      expect([r.status, r.body.error]).toEqual([400, 'invalid_argument']);
    }
    expect(await counts()).toEqual(before);
  });

  it('prints them for the operator', async () => {
    // The command reads the same database as the server, whichever engine that is.
    const env = { ...process.env, HAUL_DATA_DIR: h.dataDir, DATABASE_URL: h.ctx.config.databaseUrl ?? '', HAUL_LOG_LEVEL: 'silent', HAUL_TIME_ZONE: 'Asia/Tokyo' };
    const out = await run(process.execPath, [ADMIN_MAIN, 'stats', '--days', '3650'], { env });
    expect(out.stdout).toMatch(/2026-12-01 {2}play_limited_show +3/);
  }, 60_000);
});
