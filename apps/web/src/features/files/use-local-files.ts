/**
 * The rows of a folder (or the starred items) from the local database, kept in memory: read once in chunks (the first
 * chunk paints at once), then updated from the write announcements of local-files. Updates reach the screen at
 * most once a second while a sync pours rows in (seed 000 §4), the first one immediately.
 */
import { useEffect, useState } from 'react';
import type { DriveFile } from '@haul/shared';
import { inSlice, onLocalChange, readSlice, type LocalSlice } from '../sync/local-files';
import { StringPool, compactFile } from './compact-file';
import { IdIndex } from './id-index';

const THROTTLE_MS = 1000;

/** The fields a row shows or sorts by. */
const sameOnScreen = (a: DriveFile, b: DriveFile) =>
  a.name === b.name &&
  a.size === b.size &&
  a.star === b.star &&
  a.modified_time === b.modified_time &&
  a.parent_id === b.parent_id &&
  a.thumbnail_link === b.thumbnail_link &&
  a.mime_type === b.mime_type;

export type { LocalSlice };

export function useLocalFiles(userId: string, slice: LocalSlice): DriveFile[] | undefined {
  const [rows, setRows] = useState<DriveFile[] | undefined>(undefined);
  // The folder, or null for the starred items: what the slice (a new object each render) stands for.
  const parentId = slice.kind === 'folder' ? slice.parentId : null;
  useEffect(() => {
    const which: LocalSlice = parentId === null ? { kind: 'starred' } : { kind: 'folder', parentId };
    setRows(undefined);
    const ac = new AbortController();
    const rowsById = new IdIndex<DriveFile>();
    const pool = new StringPool();
    const belongs = inSlice(userId, which);
    // Rows changed while the first read runs are newer than what that read returns.
    // (An IdIndex, not a Set: probing a Set with every row read would internalize all their ids; see id-index.)
    const touched = new IdIndex<{ id: string }>();
    let reading = true;
    let last = 0;
    let shown = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const publish = () => {
      clearTimeout(timer);
      timer = undefined;
      last = Date.now();
      shown = rowsById.size;
      setRows(rowsById.values());
    };
    const schedule = () => {
      // The first rows of an empty screen show at once (a folder opened for the first time); later changes wait.
      if (shown === 0 && rowsById.size > 0) return publish();
      if (timer) return;
      const wait = Math.max(0, last + THROTTLE_MS - Date.now());
      timer = setTimeout(publish, wait);
    };

    const unsubscribe = onLocalChange(({ put, deleted }) => {
      // A sync rewriting rows as they were changes nothing on screen: no new render, no re-sort of the folder.
      let changed = false;
      for (const f of put) {
        if (reading) touched.set({ id: f.id });
        const had = rowsById.get(f.id);
        if (belongs(f)) {
          if (!had || !sameOnScreen(had, f)) changed = true;
          rowsById.set(compactFile(f, pool));
        } else if (had) {
          rowsById.delete(f.id); // moved away, unstarred
          changed = true;
        }
      }
      for (const id of deleted) {
        if (reading) touched.set({ id });
        changed = rowsById.delete(id) || changed;
      }
      if (changed) schedule();
    });

    let first = true;
    readSlice(
      userId,
      which,
      (chunk) => {
        for (const f of chunk) if (!touched.get(f.id)) rowsById.set(compactFile(f, pool));
        // The first chunk paints at once; the rest shows when the read is done. Publishing as chunks arrive
        // would sort the growing folder again and again while the person starts to scroll.
        if (first) {
          first = false;
          publish();
        }
      },
      ac.signal,
    )
      .then(() => {
        reading = false;
        if (!ac.signal.aborted) publish();
      })
      .catch(() => !ac.signal.aborted && setRows([]));

    return () => {
      ac.abort();
      unsubscribe();
      clearTimeout(timer);
    };
  }, [userId, parentId]);
  return rows;
}
