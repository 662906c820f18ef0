/**
 * The work measured in the page, the same for every candidate; the benchmark calls one phase at a time through
 * `window.__bench` and gets its figures back. Times are the page's own (performance.now()); long tasks come from a
 * PerformanceObserver started with the page, and a phase's longest is the longest that started within it.
 */
import { makeDrive, SMALL_FILES, USER, type Drive } from './drive';
import type { LocalFile, LocalSlice, LocalStore } from './store-api';

const longTasks: { start: number; duration: number }[] = [];
try {
  new PerformanceObserver((l) => l.getEntries().forEach((e) => longTasks.push({ start: e.startTime, duration: e.duration }))).observe({
    type: 'longtask',
    buffered: true,
  });
} catch {
  /* no long task timing in this browser: the figures say 0 */
}

/** The long tasks that started in [from, now], once the observer has been told of them (it reports a little late). */
async function tasksSince(from: number) {
  await new Promise((r) => setTimeout(r, 120));
  const mine = longTasks.filter((t) => t.start >= from);
  return { longest: Math.max(0, ...mine.map((t) => t.duration)), longTasks: mine.length };
}

/** Every IndexedDB database of this origin with each store's record count. */
async function idbRecords() {
  const out: { db: string; store: string; records: number }[] = [];
  for (const info of await indexedDB.databases()) {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(info.name!);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    for (const store of Array.from(db.objectStoreNames)) {
      const n = await new Promise<number>((resolve, reject) => {
        const req = db.transaction(store, 'readonly').objectStore(store).count();
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      out.push({ db: info.name!, store, records: n });
    }
    db.close();
  }
  return out;
}

/** Reads a slice: ms to the first chunk, ms to the whole, rows, longest task meanwhile. */
async function read(store: LocalStore, slice: LocalSlice) {
  const t = performance.now();
  let first = 0;
  let rows = 0;
  await store.readSlice(USER, slice, (chunk) => {
    if (!first) first = performance.now() - t;
    rows += chunk.length;
  });
  const whole = performance.now() - t;
  return { first: first || whole, whole, rows, ...(await tasksSince(t)) };
}

/** `n` calls made one after another (each a change a person makes: one row, its own transaction). */
async function oneByOne(n: number, call: (i: number) => Promise<void>) {
  const t = performance.now();
  for (let i = 0; i < n; i++) await call(i);
  return { ms: performance.now() - t, ...(await tasksSince(t)) };
}

export function installBench(store: LocalStore, label: string) {
  let drive: Drive | null = null;
  const driveOf = (files: number) => (drive ??= makeDrive(files, Date.now()));
  const bench = {
    label,
    async open() {
      const t = performance.now();
      const info = await store.open();
      return { ms: performance.now() - t, info, secure: isSecureContext, locks: 'locks' in navigator };
    },
    /** 1. The first sync: pages of 500 in sync order, at most two writes in flight (sync-engine.ts's walk), then its end. */
    async firstSync(files: number) {
      const { rows } = driveOf(files);
      const pages: LocalFile[][] = [];
      for (let i = 0; i < rows.length; i += 500) pages.push(rows.slice(i, i + 500));
      await new Promise((r) => setTimeout(r, 200)); // the drive's making is not measured, nor its long task
      const syncStart = rows[0]!.local_sync_timestamp; // the rows are stamped as of the sync's start, none older
      const t = performance.now();
      let before: Promise<void> = Promise.resolve();
      for (const page of pages) {
        const writing = store.writeLocalPage(page, []);
        await before; // as the engine: the next page is handed over once the one before it is stored
        before = writing;
      }
      await before;
      const written = performance.now() - t;
      await store.deleteStaleDrive(USER, syncStart);
      const total = performance.now() - t;
      return { pages: pages.length, rows: rows.length, written, staleMs: total - written, total, ...(await tasksSince(t)) };
    },
    async records() {
      const estimate = navigator.storage?.estimate ? await navigator.storage.estimate() : null;
      return { idb: await idbRecords(), usage: estimate?.usage ?? null, rows: store.rows ? await store.rows() : null, io: store.io ? await store.io() : null };
    },
    /** 2. Opening a folder: the 100-file folder, then the big one (after a reload: the store opened anew). */
    async openFolders(files: number) {
      const d = driveOf(files);
      return { small: await read(store, { kind: 'folder', parentId: d.small }), big: await read(store, { kind: 'folder', parentId: d.big }) };
    },
    /** 3. Changes one row at a time, then the folders and the starred slice read back and checked. */
    async changes(files: number) {
      const d = driveOf(files);
      const stamp = () => Date.now();
      const renames = await oneByOne(1000, (i) => store.updateLocal([{ id: d.bigIds[i]!, changes: { name: `renamed ${i}.jpg`, local_sync_timestamp: stamp() } }]));
      const moves = await oneByOne(1000, (i) =>
        store.updateLocal([{ id: d.bigIds[1000 + i]!, changes: { parent_id: d.other, local_sync_timestamp: stamp() } }]),
      );
      const deletes = await oneByOne(1000, (i) => store.deleteLocal([d.bigIds[2000 + i]!]));
      const tag = { id: 'STAR', name: 'STAR', type: 0, time: new Date().toISOString() }; // as the presenter sends it
      const stars = await oneByOne(100, (i) =>
        store.updateLocal([{ id: d.bigIds[3000 + i * 7]!, changes: { star: 1, tags: [tag], local_sync_timestamp: stamp() } }]),
      );
      const starred = await read(store, { kind: 'starred' });
      // What a screen would show now: the changes must have landed, or the figures are of a broken store.
      const names = new Map<string, string>();
      await store.readSlice(USER, { kind: 'folder', parentId: d.big }, (rows) => rows.forEach((r) => names.set(r.id, r.name)));
      const other = await read(store, { kind: 'folder', parentId: d.other });
      const small = await read(store, { kind: 'folder', parentId: d.small });
      const wrong: string[] = [];
      if (names.size !== files - 2000) wrong.push(`big folder has ${names.size} rows, expected ${files - 2000}`);
      if (names.get(d.bigIds[999]!) !== 'renamed 999.jpg') wrong.push('a rename was not kept');
      if (names.has(d.bigIds[2500]!) || names.has(d.bigIds[1500]!)) wrong.push('a deleted or moved row is still in the big folder');
      if (other.rows !== 1000) wrong.push(`the moves' folder has ${other.rows} rows, expected 1000`);
      if (small.rows !== SMALL_FILES) wrong.push(`the small folder has ${small.rows} rows`);
      if (starred.rows !== 100) wrong.push(`the starred slice has ${starred.rows} rows, expected 100`);
      return { renames, moves, deletes, stars, starred, wrong };
    },
    /** 4. Sign-out: everything of the user's forgotten. */
    async clear(files: number) {
      const d = driveOf(files);
      const t = performance.now();
      await store.clearLocalUser(USER);
      const ms = performance.now() - t;
      const left = await read(store, { kind: 'folder', parentId: d.big });
      return { ms, left: left.rows, ...(await tasksSince(t)) };
    },
  };
  (window as unknown as { __bench: typeof bench }).__bench = bench;
  return bench;
}

export type Bench = ReturnType<typeof installBench>;
