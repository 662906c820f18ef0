/** Live rows from the local database: the screen paints from here first, and follows every write (throttled 1 s). */
import { liveQuery } from 'dexie';
import { useEffect, useState } from 'react';
import { localDb, type LocalFile } from '../sync/local-db';

/** Database change events are throttled to one render a second (seed 000 §4); the first answer shows at once. */
const THROTTLE_MS = 1000;

export type LocalSlice = { kind: 'folder'; parentId: string } | { kind: 'starred' };

export function useLocalFiles(userId: string, slice: LocalSlice): LocalFile[] | undefined {
  const [rows, setRows] = useState<LocalFile[] | undefined>(undefined);
  const key = slice.kind === 'folder' ? `f:${slice.parentId}` : 'star';
  useEffect(() => {
    setRows(undefined);
    let last = 0;
    let pending: LocalFile[] | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const query = () =>
      slice.kind === 'folder'
        ? localDb.files.where('[user_id+parent_id]').equals([userId, slice.parentId]).toArray()
        : localDb.files.where('[user_id+star]').equals([userId, 1]).toArray();
    const sub = liveQuery(query).subscribe({
      next: (value) => {
        const now = Date.now();
        if (now - last >= THROTTLE_MS) {
          last = now;
          setRows(value);
          return;
        }
        pending = value;
        timer ??= setTimeout(
          () => {
            timer = undefined;
            last = Date.now();
            if (pending) setRows(pending);
            pending = null;
          },
          THROTTLE_MS - (now - last),
        );
      },
      error: () => setRows([]),
    });
    return () => {
      sub.unsubscribe();
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [userId, key]);
  return rows;
}
