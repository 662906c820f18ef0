/**
 * The token a correct pass code earned, kept per share in localStorage so a reload, a sign-in or another tab of the
 * same share does not ask for the code again, and dropped once the token itself has expired (it is worth nothing
 * after that, and a code typed on a shared computer should not linger).
 */
const PREFIX = 'haul.share-token.';
const key = (shareId: string) => `${PREFIX}${shareId}`;
/** When a token does not say when it ends: the server's token lifetime, so it is never kept longer than it can work. */
const FALLBACK_TTL_MS = 2 * 3600_000;

interface Kept {
  token: string;
  /** Epoch milliseconds. */
  expires: number;
}

/** The server writes its tokens as "{expiry in ms}.{signature}"; anything else gets the fallback lifetime. */
function expiryOf(token: string, now: number): number {
  const ms = Number(/^(\d{1,16})\./.exec(token)?.[1]);
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, now + FALLBACK_TTL_MS) : now + FALLBACK_TTL_MS;
}

function read(k: string): Kept | null {
  try {
    const v = JSON.parse(localStorage.getItem(k) ?? 'null') as Partial<Kept> | null;
    return v && typeof v.token === 'string' && typeof v.expires === 'number' ? { token: v.token, expires: v.expires } : null;
  } catch {
    return null;
  }
}

/** Forgets the tokens of every share that have run out, so visited shares do not pile up. */
function dropExpired(now: number): void {
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const k = localStorage.key(i);
    if (!k?.startsWith(PREFIX)) continue;
    const kept = read(k);
    if (!kept || kept.expires <= now) localStorage.removeItem(k);
  }
}

export function loadShareToken(shareId: string, now = Date.now()): string {
  try {
    const kept = read(key(shareId));
    if (kept && kept.expires > now) return kept.token;
    if (kept) localStorage.removeItem(key(shareId));
  } catch {
    // Storage refused (private mode, a full quota): the code is simply asked again.
  }
  return '';
}

/** Keeps the token for this share ('' forgets it: the share asked for the code again, so it no longer works). */
export function saveShareToken(shareId: string, token: string, now = Date.now()): void {
  try {
    dropExpired(now);
    if (token) localStorage.setItem(key(shareId), JSON.stringify({ token, expires: expiryOf(token, now) } satisfies Kept));
    else localStorage.removeItem(key(shareId));
  } catch {
    // As above: without storage the token lives only as long as the page.
  }
}

/** Calls `then` with the token another tab of this browser has just kept for this share. */
export function onShareTokenKept(shareId: string, then: (token: string) => void): () => void {
  const listener = (e: StorageEvent) => {
    if (e.key !== key(shareId)) return;
    const token = loadShareToken(shareId);
    if (token) then(token);
  };
  window.addEventListener('storage', listener);
  return () => window.removeEventListener('storage', listener);
}
