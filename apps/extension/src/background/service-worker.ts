/**
 * The extension's worker: the "Send to Haul" context-menu items, catching magnet-link clicks and .torrent downloads
 * (each while its switch is on), and the first-run page. What is sent becomes cloud downloads on the connected Haul
 * (lib/send-links.ts), and the badge and a notification say how it went.
 */
import { sendLinks, type SendResult } from '../lib/send-links';
import { onStoredChange } from '../lib/storage';
import { addCaughtMagnet, caughtMagnet, syncMagnetCatching } from './magnet-catching';
import { installMenus, linksOfClick, type MenuClick } from './menu-links';
import { tell } from './tell';
import { watchDownloads } from './torrent-downloads';

/** What a click on one of the items does; answers the result (for the worker's console and browser tests). */
export async function sendToHaul(click: MenuClick, tab?: chrome.tabs.Tab): Promise<SendResult> {
  const result = await sendLinks(await linksOfClick(click, tab?.id));
  await tell(result);
  return result;
}

chrome.runtime.onInstalled.addListener(({ reason }) => {
  installMenus();
  // First run: the welcome page (the options), where the person connects their Haul.
  if (reason === chrome.runtime.OnInstalledReason.INSTALL) void chrome.tabs.create({ url: chrome.runtime.getURL('options.html#welcome') });
});

chrome.contextMenus.onClicked.addListener((info, tab) => void sendToHaul(info, tab));

chrome.runtime.onMessage.addListener((message, sender) => {
  const url = caughtMagnet(message, sender);
  if (url) void addCaughtMagnet(url).then((r) => r && tell(r));
  // Nothing is answered: the page goes on at once.
  return false;
});

const followSwitches = () => {
  void syncMagnetCatching();
  watchDownloads((r) => void tell(r));
};
chrome.permissions.onAdded.addListener(followSwitches);
chrome.permissions.onRemoved.addListener(followSwitches);
onStoredChange(['catching'], followSwitches);
followSwitches();

// A headless browser cannot click a context menu: its handler is reachable from the worker's scope instead.
Object.assign(globalThis, { sendToHaul });
