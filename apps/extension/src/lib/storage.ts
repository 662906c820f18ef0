/**
 * What the extension keeps, in chrome.storage.local: the Haul it is connected to, the session's tokens and the folder
 * cloud downloads go into. The worker and every page read it afresh each time, so they never act on stale tokens.
 */
import type { Session } from '@haul/client';
import { t } from './i18n';

/** A folder of the drive; the top of the drive has the id ''. */
export interface Folder {
  id: string;
  name: string;
}

export interface Stored {
  /** The origin of the connected Haul, e.g. "https://haul.example.com". */
  server: string;
  session: Session;
  folder: Folder;
  /** The switches of catching links on pages (lib/catching.ts); both off until turned on. */
  catching: Catching;
}

/** What the extension catches by itself: clicks on magnet links, and .torrent files the browser downloads. */
export interface Catching {
  magnets: boolean;
  torrents: boolean;
}

/** The top of the drive: where cloud downloads go until another folder is chosen. */
export const TOP_FOLDER: Folder = { id: '', name: 'My drive' };

/** A folder's name as shown: the top of the drive in the person's language. */
export const folderName = (f: Folder): string => (f.id === '' ? t('myDrive') : f.name);

/** One stored value, or undefined when there is none. */
export async function readStored<K extends keyof Stored>(key: K): Promise<Stored[K] | undefined> {
  const got = await chrome.storage.local.get(key);
  return (got[key] ?? undefined) as Stored[K] | undefined;
}

export function writeStored(change: Partial<Stored>): Promise<void> {
  return chrome.storage.local.set(change);
}

export function forgetStored(...keys: (keyof Stored)[]): Promise<void> {
  return chrome.storage.local.remove(keys);
}

/** Calls `fn` whenever one of `keys` changes (another page signed in or out, the folder changed). */
export function onStoredChange(keys: (keyof Stored)[], fn: () => void): void {
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && keys.some((k) => k in changes)) fn();
  });
}
