/** One sync engine per signed-in user: started with the app shell, nudged on focus and every minute. */
import { useEffect } from 'react';
import { listFiles } from '../files/files-api';
import { useSessionStore } from '../auth/session-store';
import { localDb } from './local-db';
import { SyncEngine } from './sync-engine';

// Opened as the app's shell loads, so that by the time a folder screen asks whether its folder is known whole the
// marks are checked against the database (until then every folder is fetched; see local-db.ts).
if (typeof indexedDB !== 'undefined') void localDb().catch(() => undefined);

const BACKGROUND_SYNC_MS = 60_000;
let engine: SyncEngine | null = null;

export function syncEngineFor(userId: string): SyncEngine {
  if (!engine || engine.userId !== userId) engine = new SyncEngine(userId, { list: listFiles });
  return engine;
}

/** Picks up what a change just did (and what other devices did); errors are left to the next run. */
export function syncNow(force = false): Promise<void> {
  const session = useSessionStore.getState().session;
  if (!session) return Promise.resolve();
  return syncEngineFor(session.userId)
    .incremental({ force })
    .catch(() => undefined);
}

export function useSyncEngine(): void {
  const userId = useSessionStore((s) => s.session?.userId);
  useEffect(() => {
    if (!userId) return;
    const e = syncEngineFor(userId);
    e.start().catch(() => undefined);
    const onFocus = () => void e.incremental().catch(() => undefined);
    window.addEventListener('focus', onFocus);
    const timer = setInterval(onFocus, BACKGROUND_SYNC_MS);
    return () => {
      window.removeEventListener('focus', onFocus);
      clearInterval(timer);
    };
  }, [userId]);
}
