/**
 * The local store's API over SQLite in a dedicated worker: every call is one message, answered in order. Rows go to
 * the worker as structured clones; slices come back as JSON text (one `JSON.parse` a chunk on this thread, which is
 * cheaper than a structured clone of the same objects).
 */
import type { LocalFile, LocalSlice, LocalStore } from './store-api';

type Answer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

export function sqliteStore(workerUrl: URL): LocalStore {
  let worker: Worker | null = null;
  let ready: Promise<unknown> | null = null;
  let next = 1;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  const call = <T>(op: string, ...args: unknown[]): Promise<T> => {
    worker ??= start();
    const id = next++;
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker!.postMessage({ id, op, args });
    });
  };
  function start() {
    const w = new Worker(workerUrl, { type: 'module' });
    w.onmessage = (e: MessageEvent<Answer>) => {
      const a = e.data;
      const p = waiting.get(a.id);
      waiting.delete(a.id);
      if (a.ok) p?.resolve(a.value);
      else p?.reject(new Error(a.error));
    };
    w.onerror = (e) => {
      for (const p of waiting.values()) p.reject(new Error(e.message || 'the SQLite worker failed'));
      waiting.clear();
    };
    return w;
  }
  const open = () => (ready ??= call('open'));

  const readSlice = async (userId: string, slice: LocalSlice, onChunk: (rows: LocalFile[]) => void, signal?: AbortSignal, chunk = 2000) => {
    await open();
    let from = '';
    for (;;) {
      const [text, last, count] = await call<[string | null, string | null, number]>('slice', userId, slice, from, chunk);
      if (signal?.aborted) return;
      if (count) onChunk(JSON.parse(text!) as LocalFile[]);
      if (count < chunk) return;
      from = last!;
    }
  };

  /** A call made once the database is open (the first call opens it). */
  const after = async (op: string, ...args: unknown[]): Promise<void> => {
    await open();
    await call(op, ...args);
  };

  return {
    open,
    writeLocalPage: (put, deleted) => after('write', put, deleted),
    putLocal: (rows) => after('write', rows, []),
    deleteLocal: (ids) => after('write', [], ids),
    updateLocal: (changes) => after('update', changes),
    readSlice,
    deleteStale: (userId, slice, stamp) => after('deleteStale', userId, slice, stamp),
    deleteStaleDrive: (userId, stamp) => after('deleteStale', userId, null, stamp),
    clearLocalUser: (userId) => after('clear', userId),
    io: async () => {
      await open();
      return call('io');
    },
    rows: async () => {
      await open();
      return call<number>('count');
    },
  };
}
