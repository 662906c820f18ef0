/** The page of the SQLite candidate: the same API, answered by wa-sqlite in a dedicated worker (sqlite-worker.ts). */
import { installBench } from './driver';
import { sqliteStore } from './sqlite-store';

installBench(sqliteStore(new URL('./sqlite-worker.js', location.href)), document.title);
