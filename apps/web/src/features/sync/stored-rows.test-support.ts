/** What the local copy holds, read whole: for tests, which look past the chunks at the rows. */
import { localDb } from './local-db';
import type { StoredFile } from './stored-row';

/** Every stored row by id, as stored (without the fields at their usual value). */
export async function storedRows(): Promise<Map<string, StoredFile>> {
  const rows = new Map<string, StoredFile>();
  for (const c of await (await localDb()).getAll('chunks')) for (const r of c.rows) rows.set(r.id, r);
  return rows;
}

export const storedIds = async () => [...(await storedRows()).keys()].sort();

/** Empties the copy of files (every user), keeping the database. */
export async function clearStoredRows(): Promise<void> {
  const tx = (await localDb()).transaction(['chunks', 'chunk_ids', 'local_meta'], 'readwrite');
  const meta = await tx.objectStore('local_meta').get('chunks');
  await Promise.all([tx.objectStore('chunks').clear(), tx.objectStore('chunk_ids').clear(), tx.objectStore('local_meta').put({ key: 'chunks', gen: (meta?.gen ?? 0) + 1 }), tx.done]);
}
