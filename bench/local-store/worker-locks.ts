/**
 * navigator.locks for a context without it (an insecure origin): the Web Locks requests one worker makes, granted in
 * its own memory in the order asked, shared with shared and exclusive alone, `ifAvailable` answered at once.
 * Exact for one connection in one worker; nothing is shared with other tabs.
 */
type Mode = 'shared' | 'exclusive';
interface Ask {
  name: string;
  mode: Mode;
  grant: () => void;
}

export function installLocks(): boolean {
  if ('locks' in navigator && navigator.locks) return false;
  const held = new Map<string, { mode: Mode; count: number }>();
  const queue: Ask[] = [];
  const free = (name: string, mode: Mode) => {
    const h = held.get(name);
    return !h || (h.mode === 'shared' && mode === 'shared');
  };
  const pump = () => {
    for (let i = 0; i < queue.length; i++) {
      const a = queue[i]!;
      // Requests for one name are granted in order: one that must wait holds back those after it.
      if (queue.slice(0, i).some((b) => b.name === a.name)) continue;
      if (!free(a.name, a.mode)) continue;
      queue.splice(i--, 1);
      a.grant();
    }
  };
  const request = (name: string, optsOrCb: unknown, maybeCb?: unknown): Promise<unknown> => {
    const opts = (typeof optsOrCb === 'function' ? {} : optsOrCb) as { mode?: Mode; ifAvailable?: boolean };
    const cb = (typeof optsOrCb === 'function' ? optsOrCb : maybeCb) as (lock: unknown) => unknown;
    const mode = opts.mode ?? 'exclusive';
    if (opts.ifAvailable && (!free(name, mode) || queue.some((a) => a.name === name))) return Promise.resolve().then(() => cb(null));
    return new Promise((resolve, reject) => {
      queue.push({
        name,
        mode,
        grant: () => {
          const h = held.get(name);
          if (h) h.count++;
          else held.set(name, { mode, count: 1 });
          const release = () => {
            const now = held.get(name)!;
            if (--now.count === 0) held.delete(name);
            pump();
          };
          Promise.resolve()
            .then(() => cb({ name, mode }))
            .then(
              (v) => (release(), resolve(v)),
              (e) => (release(), reject(e)),
            );
        },
      });
      pump();
    });
  };
  Object.defineProperty(navigator, 'locks', { value: { request, query: async () => ({ held: [], pending: [] }) }, configurable: true });
  return true;
}
