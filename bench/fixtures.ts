/** Shared set-up of the benchmarks: an account, and a folder of many files written straight to the database. */
import { HaulClient } from '@haul/client';
import type { TokenResponse } from '@haul/shared';
import type { Db } from '../apps/server/src/db/database.js';
import { newId } from '../apps/server/src/lib/ids.js';

import { startPgCluster } from '../scripts/pg-cluster.mjs';

export { freePort } from '../e2e/harness.js';

/** Runs a benchmark on SQLite, then on PostgreSQL (HAUL_BENCH_DATABASE_URL, or a throwaway cluster). */
export async function onBothDatabases(run: (label: string, databaseUrl: string | null) => Promise<void>): Promise<void> {
  await run('SQLite', null);
  const given = process.env.HAUL_BENCH_DATABASE_URL;
  const cluster = given ? null : await startPgCluster();
  try {
    await run('PostgreSQL', given ?? cluster!.url);
  } finally {
    cluster?.stop();
  }
}

/** The p-th percentile of some timings. */
export const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? 0;
/** The p50 of `n` runs of `op` (after one warm-up when `warm`). */
export async function p50(n: number, op: () => Promise<unknown>, warm = true): Promise<number> {
  if (warm) await op();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    await op();
    times.push(performance.now() - s);
  }
  return pct(times, 50);
}

export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
export const ms = (n: number) => `${n.toFixed(2)} ms`;

/** A new account on `base`, and the typed client signed in as it (the benchmarks call the API as the app does). */
export async function signUpClient(base: string, email: string): Promise<{ client: HaulClient; tokens: TokenResponse }> {
  const client = new HaulClient({ baseUrl: base });
  const tokens = await client.call('signUp', { body: { email, password: 'bench password 1' } });
  await client.signIn(tokens);
  return { client, tokens };
}

export const signUpApi = async (base: string, email: string): Promise<TokenResponse> => (await signUpClient(base, email)).tokens;

const EXT = ['.jpg', '.mp4', '.pdf', '.txt', '.zip', '.mp3'];
const MIME = ['image/jpeg', 'video/mp4', 'application/pdf', 'text/plain', 'application/zip', 'audio/mpeg'];

/** A folder in the user's root holding `count` files with varied names, sizes and times (setup, not measured). */
export async function seedFolder(db: Db, userId: string, name: string, count: number): Promise<string> {
  const folderId = newId();
  const now = Date.now();
  const row = (id: string, parent: string, n: string, kind: string, size: number, ext: string, mime: string, t: number) => ({
    id,
    user_id: userId,
    parent_id: parent,
    name: n,
    kind,
    size,
    mime_type: mime,
    file_extension: ext,
    hash: '',
    star: 0,
    star_time: null,
    trashed: 0,
    trash_group: null,
    trashed_at: null,
    phase: 'PHASE_TYPE_COMPLETE',
    sensitive: 0,
    params: '{}',
    created_time: t,
    modified_time: t,
    changed_time: t,
  });
  await db
    .insertInto('files')
    .values(row(folderId, '', name, 'drive#folder', 0, '', '', now))
    .execute();
  const BATCH = 500;
  for (let i = 0; i < count; i += BATCH) {
    const rows: ReturnType<typeof row>[] = [];
    for (let j = i; j < Math.min(count, i + BATCH); j++) {
      const k = j % EXT.length;
      // Times spread over a year, sizes over five orders of magnitude: every sort order has work to do.
      const t = now - ((j * 7919) % 31_536_000) * 1000;
      rows.push(
        row(
          newId(),
          folderId,
          `file-${String(j).padStart(6, '0')}${EXT[k]}`,
          'drive#file',
          ((j * 104729) % 100_000) * 97,
          EXT[k]!,
          MIME[k]!,
          t,
        ),
      );
    }
    await db.transaction().execute((trx) => trx.insertInto('files').values(rows).execute());
  }
  return folderId;
}
