/**
 * The extension's worker: the "Send to Haul" context-menu items, and the first-run page. Each click becomes cloud
 * downloads on the connected Haul (lib/send-links.ts), and the badge and a notification say how it went.
 */
import { sendLinks, type SendResult } from '../lib/send-links';
import { installMenus, linksOfClick, type MenuClick } from './menu-links';
import { tell } from './tell';

/** What a click on one of the items does; answers the result (for the worker's console and browser tests). */
export async function sendToHaul(click: MenuClick, tab?: chrome.tabs.Tab): Promise<SendResult> {
  const result = await sendLinks(await linksOfClick(click, tab?.id));
  await tell(result);
  return result;
}

chrome.runtime.onInstalled.addListener(({ reason }) => {
  installMenus();
  // First run: the options page, where the person connects their Haul.
  if (reason === chrome.runtime.OnInstalledReason.INSTALL) void chrome.runtime.openOptionsPage();
});

chrome.contextMenus.onClicked.addListener((info, tab) => void sendToHaul(info, tab));

// A headless browser cannot click a context menu: its handler is reachable from the worker's scope instead.
Object.assign(globalThis, { sendToHaul });
