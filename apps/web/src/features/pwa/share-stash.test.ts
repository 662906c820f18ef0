// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STASH_LIFETIME_MS, stashArrival, takeArrival } from './share-stash';

/** Cache Storage as the browser keeps it, in memory (Node has Response and FormData, not caches). */
function memoryCaches() {
  const stores = new Map<string, Map<string, Response>>();
  const url = (r: RequestInfo | URL) => (typeof r === 'string' ? r : r instanceof URL ? r.href : r.url);
  return {
    stores,
    open: async (name: string) => {
      const store = stores.get(name) ?? new Map<string, Response>();
      stores.set(name, store);
      return {
        put: async (r: RequestInfo, res: Response) => void store.set(url(r), res),
        match: async (r: RequestInfo) => store.get(url(r))?.clone(),
        delete: async (r: RequestInfo) => store.delete(url(r)),
        keys: async () => [...store.keys()].map((u) => new Request(u)),
      };
    },
  };
}

const shareForm = (fields: Record<string, string>, files: File[] = []) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  for (const f of files) form.append('files', f, f.name);
  return form;
};

let caches: ReturnType<typeof memoryCaches>;
beforeEach(() => {
  caches = memoryCaches();
  vi.stubGlobal('caches', caches);
  vi.stubGlobal('self', { location: { origin: 'http://haul.test' } });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('share stash', () => {
  it('keeps the text fields and the first file under a fresh key, for one reading', async () => {
    const torrent = new File([new Uint8Array([100, 101])], 'a.torrent', { type: 'application/x-bittorrent' });
    const key = await stashArrival(shareForm({ title: 'T', text: 'x https://a.test', url: '' }, [torrent, new File(['b'], 'b.torrent')]));
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    const got = await takeArrival(key);
    expect(got).toMatchObject({ title: 'T', text: 'x https://a.test', url: '' });
    expect(got!.file!.name).toBe('a.torrent');
    expect([...new Uint8Array(await got!.file!.arrayBuffer())]).toEqual([100, 101]);
    expect(await takeArrival(key)).toBeNull();
    expect(await takeArrival('no-such-key')).toBeNull();
  });

  it('forgets a share nobody opened within the hour, and clears it away at the next share', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const old = await stashArrival(shareForm({ text: 'https://old.test' }));
    vi.setSystemTime(Date.now() + STASH_LIFETIME_MS + 1000);
    const fresh = await stashArrival(shareForm({ text: 'https://new.test' }));
    expect([...caches.stores.values()][0]!.size).toBe(1);
    expect(await takeArrival(old)).toBeNull();
    expect((await takeArrival(fresh))?.text).toBe('https://new.test');
  });

  it('cuts a text field that is far too long to be a list of links', async () => {
    const key = await stashArrival(shareForm({ text: 'x'.repeat(200_000) }));
    expect((await takeArrival(key))!.text.length).toBe(65_536);
  });
});
