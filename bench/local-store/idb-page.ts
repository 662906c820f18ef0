/**
 * The page of an IndexedDB candidate: the web app's store as it is at some commit. `#store/*` is resolved by the
 * benchmark's bundler to the candidate's copy of apps/web/src/features/sync (a commit's files, or the working tree's).
 */
// @ts-expect-error resolved at bundle time
import * as db from '#store/local-db';
// @ts-expect-error resolved at bundle time
import * as files from '#store/local-files';
import { installBench } from './driver';
import type { LocalStore } from './store-api';

const store: LocalStore = {
  open: async () => {
    await db.localDb();
    return null;
  },
  writeLocalPage: files.writeLocalPage,
  putLocal: files.putLocal,
  deleteLocal: files.deleteLocal,
  updateLocal: files.updateLocal,
  readSlice: files.readSlice,
  deleteStale: files.deleteStale,
  deleteStaleDrive: files.deleteStaleDrive,
  clearLocalUser: db.clearLocalUser,
};

installBench(store, document.title);
