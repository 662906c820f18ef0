/**
 * After a change to files (made here, by an upload, a cloud download or an archive): pick it up in the local database
 * (incremental sync) and refresh the server-backed lists. Kept apart from file-mutations.ts so the upload code can
 * use it without importing the mutations, which load the upload code.
 */
import type { QueryClient } from '@tanstack/react-query';
import { syncNow } from '../sync/use-sync-engine';

let queryClient: QueryClient | null = null;
/** Set once at start-up, so mutations can refresh server-backed lists without a hook. */
export function bindQueryClient(qc: QueryClient) {
  queryClient = qc;
}

/** Refreshes the server-backed lists whose query key starts with one of `keys`. */
export async function refreshQueries(keys: string[]): Promise<void> {
  await queryClient?.invalidateQueries({ predicate: (q) => keys.includes(q.queryKey[0] as string) });
}

/** Picks up a change in the local database and the server-backed lists. */
export async function settleFileChanges(): Promise<void> {
  await syncNow();
  await refreshQueries(['trash', 'search', 'recent', 'about', 'picker', 'file', 'cloud-tasks', 'shares', 'share']);
}
