/**
 * The two switches of catching, off until the person turns one on in the options: clicks on magnet links (a content
 * script on every http(s) page) and .torrent files the browser downloads (the downloads API, and reading the file).
 * Both need access to sites, and the second the downloads API: optional permissions, asked for when a switch is turned
 * on and given back when nothing needs them any more, so an extension that catches nothing holds neither.
 */
import { readStored, writeStored, type Catching } from './storage';

export type CatchKind = keyof Catching;

/** Every http(s) page: where magnet links are clicked and .torrent files come from. */
export const ALL_SITES = ['http://*/*', 'https://*/*'];

const NEEDS: Record<CatchKind, chrome.permissions.Permissions> = {
  magnets: { origins: ALL_SITES },
  torrents: { permissions: ['downloads'], origins: ALL_SITES },
};

const OFF: Catching = { magnets: false, torrents: false };

/** The switches as stored (both off when never set). */
export const readCatching = async (): Promise<Catching> => ({ ...OFF, ...((await readStored('catching')) ?? {}) });

/** Whether a switch is on and the browser still grants what it needs (a person can take site access back). */
export async function isCatching(kind: CatchKind): Promise<boolean> {
  if (!(await readCatching())[kind]) return false;
  return chrome.permissions.contains(NEEDS[kind]);
}

/**
 * Turns a switch on or off. On: asks the browser for what it needs (call it straight from the click, which the prompt
 * requires), and stays off when refused. Off: gives back what no switch still on needs. Answers the switch's state.
 */
export async function setCatching(kind: CatchKind, on: boolean): Promise<boolean> {
  if (on) {
    const granted = await chrome.permissions.request(NEEDS[kind]);
    await writeStored({ catching: { ...(await readCatching()), [kind]: granted } });
    return granted;
  }
  const now = { ...(await readCatching()), [kind]: false };
  await writeStored({ catching: now });
  const kept = (Object.keys(now) as CatchKind[]).filter((k) => now[k]).map((k) => NEEDS[k]);
  const still = (p: chrome.runtime.ManifestPermission) => kept.some((n) => n.permissions?.includes(p));
  const stillOrigin = (o: string) => kept.some((n) => n.origins?.includes(o));
  const giveBack = { permissions: (NEEDS[kind].permissions ?? []).filter((p) => !still(p)), origins: ALL_SITES.filter((o) => !stillOrigin(o)) };
  // A browser that granted them for good (a managed install) refuses to take them back: the switch is off all the same.
  await chrome.permissions.remove(giveBack as chrome.permissions.Permissions).catch(() => false);
  return false;
}
