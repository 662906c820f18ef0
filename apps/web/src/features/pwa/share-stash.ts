/**
 * What another app shared with the installed Haul (the manifest's share target), kept between the service worker that
 * received the POST and the drive page it opens: one Cache Storage entry per arrival, read once, gone after an hour.
 * Used by both the service worker and the page, so it touches only what both have (caches, Response, FormData).
 */

/** Where the share target posts (the manifest's `share_target.action`); the server answers it when no worker runs. */
export const SHARE_TARGET_PATH = '/drive/share-target';

/**
 * The drive address a stashed arrival opens; `shared` names the stash. No `action=create_task`: the deep links' own
 * create_task (links in `url`) would open a second, empty dialog over this one.
 */
export const arrivalAddress = (key: string) => `/drive/all?shared=${encodeURIComponent(key)}`;

const CACHE = 'haul-shared-arrivals';
/** Long enough to sign in first (the signed-out visitor goes through the sign-in page), short enough not to linger. */
export const STASH_LIFETIME_MS = 60 * 60 * 1000;
const STORED_AT = 'x-haul-stored-at';

/** What came with the share: the three text fields and at most one file. */
export interface SharedArrival {
  title: string;
  text: string;
  url: string;
  file: File | null;
}

/** The cache key of a stash; never a URL anything fetches (the worker answers no GET from this cache). */
const entryUrl = (key: string) => new URL(`${SHARE_TARGET_PATH}/${encodeURIComponent(key)}`, self.location.origin).href;

const field = (form: FormData, name: string) => {
  const v = form.get(name);
  // A share's text fields are short; a megabyte of "text" is not a list of links anyone meant to send.
  return typeof v === 'string' ? v.slice(0, 65_536) : '';
};

/** Keeps the share (the posted form) under a new random key, and answers the key. */
export async function stashArrival(form: FormData): Promise<string> {
  const key = crypto.randomUUID();
  const kept = new FormData();
  for (const name of ['title', 'text', 'url']) kept.set(name, field(form, name));
  const file = form.getAll('files').find((f): f is File => typeof f !== 'string');
  if (file) kept.set('files', file, file.name);
  const cache = await caches.open(CACHE);
  await dropStale(cache);
  await cache.put(entryUrl(key), new Response(kept, { headers: { [STORED_AT]: String(Date.now()) } }));
  return key;
}

/** Reads the share kept under `key` and deletes it (single use); null when it is unknown or older than an hour. */
export async function takeArrival(key: string): Promise<SharedArrival | null> {
  const cache = await caches.open(CACHE);
  const res = await cache.match(entryUrl(key));
  await cache.delete(entryUrl(key));
  await dropStale(cache);
  if (!res || isStale(res)) return null;
  const form = await res.formData();
  const file = form.get('files');
  return { title: field(form, 'title'), text: field(form, 'text'), url: field(form, 'url'), file: typeof file === 'string' ? null : file };
}

const isStale = (res: Response) => !(Date.now() - Number(res.headers.get(STORED_AT)) < STASH_LIFETIME_MS);

/** Removes what was shared but never opened. */
async function dropStale(cache: Cache): Promise<void> {
  for (const req of await cache.keys()) {
    const res = await cache.match(req);
    if (!res || isStale(res)) await cache.delete(req);
  }
}
