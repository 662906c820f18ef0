/**
 * Share links with a 10,000-file folder, on SQLite and on PostgreSQL:
 * - saving the shared folder into another account's drive (metadata only; aim under 2 s);
 * - a visitor's listing of the shared folder, page by page, beside the owner's own listing of the same folder in the
 *   same run (aim: within 1.5x per page).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { buildHaul } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { HaulClient } from '@haul/client';
import { freePort, ms, onBothDatabases, pct, seedFolder, signUpClient, sum } from './fixtures.js';

const FILES = Number(process.env.HAUL_BENCH_SHARE_FILES ?? 10_000);
const ROUNDS = 3;

async function run(label: string, databaseUrl: string | null) {
  const dataDir = mkdtempSync(join(tmpdir(), 'haul-bench-share-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const haul = await buildHaul(
    {
      ...loadConfig({}),
      firstRunSetup: false,
      dataDir,
      databaseUrl,
      logLevel: 'silent',
      port,
      publicUrl: base,
      webDir: join(dataDir, 'none'),
      defaultQuotaBytes: 2 ** 50,
    },
    { logger: false },
  );
  await haul.app.listen({ port, host: '127.0.0.1' });
  try {
    const { client: ownerClient, tokens: owner } = await signUpClient(base, `owner-${label.toLowerCase()}@example.com`);
    const { client: visitorClient } = await signUpClient(base, `visitor-${label.toLowerCase()}@example.com`);
    const anonymous = new HaulClient({ baseUrl: base });

    const folder = await seedFolder(haul.ctx.db, owner.sub, 'Shared big', FILES);
    // Every file its own stored content, so a save has 10,000 blobs to count once more.
    await sql`UPDATE files SET hash = id WHERE parent_id = ${folder}`.execute(haul.ctx.db);
    await sql`INSERT INTO blobs (hash, size, cid, ref_count, created_at, updated_at)
              SELECT id, size, '', 1, 0, 0 FROM files WHERE parent_id = ${folder}`.execute(haul.ctx.db);
    const share = await ownerClient.call('createShare', { body: { file_ids: [folder], share_to: 'publiclink', expiration_days: -1 } });
    console.log(`\n${label}: a shared folder of ${FILES} files`);

    const saves: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const s = performance.now();
      const res = await visitorClient.call('restoreShare', { body: { share_id: share.share_id, parent_id: '' } });
      saves.push(performance.now() - s);
      if (res.file_ids.length !== 1) throw new Error('the save did not return the new folder');
    }
    const copied = await visitorClient.call('listFiles', { query: { parent_id: '*', limit: 1, filters: '{"kind":{"eq":"drive#folder"}}' } });
    if (!copied.files.length) throw new Error('nothing was saved');
    console.log(`  save to another drive: ${saves.map((t) => `${(t / 1000).toFixed(2)} s`).join(', ')} (aim < 2 s)`);

    const walk = async (list: (token: string) => Promise<{ files: unknown[]; next_page_token: string }>) => {
      const times: number[] = [];
      let token = '';
      let seen = 0;
      do {
        const s = performance.now();
        const page = await list(token);
        times.push(performance.now() - s);
        seen += page.files.length;
        token = page.next_page_token;
      } while (token);
      if (seen !== FILES) throw new Error(`listed ${seen} of ${FILES}`);
      return times;
    };
    const visitorPages = (token: string) =>
      anonymous.call('viewShare', { query: { share_id: share.share_id, parent_id: folder, limit: 100, page_token: token || undefined } });
    const ownerPages = (token: string) =>
      ownerClient.call('listFiles', {
        query: { parent_id: folder, limit: 100, filters: '{"trashed":{"eq":false},"phase":{"eq":"PHASE_TYPE_COMPLETE"}}', page_token: token || undefined },
      });
    await walk(visitorPages);
    await walk(ownerPages);
    const shared: number[] = [];
    const own: number[] = [];
    // Interleaved rounds, so a noisy moment hurts both sides alike.
    for (let i = 0; i < ROUNDS; i++) {
      shared.push(...(await walk(visitorPages)));
      own.push(...(await walk(ownerPages)));
    }
    console.log(
      `  pages of 100 | share p50 ${ms(pct(shared, 50))} p99 ${ms(pct(shared, 99))} | owner p50 ${ms(pct(own, 50))} p99 ${ms(pct(own, 99))}` +
        ` | share/owner ${(pct(shared, 50) / pct(own, 50)).toFixed(2)}x (p50), ${(sum(shared) / sum(own)).toFixed(2)}x (total; aim within 1.5x)`,
    );
  } finally {
    await haul.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await onBothDatabases(run);
