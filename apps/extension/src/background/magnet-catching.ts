/**
 * Catching magnet-link clicks, in the worker: the content script (content/magnet-clicks.ts) is registered on every
 * http(s) page while the switch is on and the browser grants site access, and unregistered otherwise; pages already
 * open get it at once (or are told it is off). A caught link arrives as a message, checked before anything is sent.
 */
import { ALL_SITES, isCatching } from '../lib/catching';
import { isMagnet } from '../lib/links';
import { sendLinks, type SendResult } from '../lib/send-links';

const SCRIPT_ID = 'haul-magnet-clicks';
const SCRIPT_FILE = 'magnet-clicks.js';
/** Longer than any magnet link a page sensibly holds; the API takes 100,000 characters of links. */
const MAX_LINK = 100_000;

async function tellOpenPages(on: boolean): Promise<void> {
  const tabs = await chrome.tabs.query({ url: ALL_SITES }).catch(() => []);
  await Promise.all(
    tabs.map(async (tab) => {
      if (tab.id === undefined) return;
      if (on) await chrome.scripting.executeScript({ target: { tabId: tab.id, allFrames: true }, files: [SCRIPT_FILE] }).catch(() => undefined);
      else await chrome.tabs.sendMessage(tab.id, { type: 'haul.catch-magnets', on: false }).catch(() => undefined);
    }),
  );
}

/** Registers or unregisters the content script to match the switch; pages already open follow. */
export async function syncMagnetCatching(): Promise<void> {
  const on = await isCatching('magnets');
  const registered = (await chrome.scripting.getRegisteredContentScripts({ ids: [SCRIPT_ID] }).catch(() => [])).length > 0;
  if (on && !registered) {
    await chrome.scripting.registerContentScripts([
      { id: SCRIPT_ID, js: [SCRIPT_FILE], matches: ALL_SITES, runAt: 'document_start', allFrames: true, persistAcrossSessions: true },
    ]);
  } else if (!on && registered) {
    await chrome.scripting.unregisterContentScripts({ ids: [SCRIPT_ID] });
  }
  if (on !== registered) await tellOpenPages(on);
}

/** The link of a message from a page's content script, or null when the message is not one (or not from a page). */
export function caughtMagnet(message: unknown, sender: chrome.runtime.MessageSender): string | null {
  if (sender.id !== chrome.runtime.id || !sender.tab) return null;
  const m = message as { type?: unknown; url?: unknown } | null;
  if (m?.type !== 'haul.magnet' || typeof m.url !== 'string' || m.url.length > MAX_LINK) return null;
  return isMagnet(m.url) ? m.url.trim() : null;
}

/** Adds a caught magnet link, when the switch is still on (a page may have kept an old script). */
export async function addCaughtMagnet(url: string): Promise<SendResult | null> {
  if (!(await isCatching('magnets'))) return null;
  return sendLinks([url]);
}
