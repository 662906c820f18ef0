/**
 * The links a "Send to Haul" click means: the link itself, a picture's or a video's source, the page's address, or
 * every http(s) and magnet link in a selection — both the ones written out in its text and the ones behind its
 * linked words, read from the page (the click grants activeTab for that tab).
 */
import { t } from '../lib/i18n';
import { linksInText, unique } from '../lib/links';

/** The context-menu items, one a kind of thing clicked on. */
export const MENU = {
  link: 'send-link',
  selection: 'send-selection',
  media: 'send-media',
  page: 'send-page',
} as const;

/** What the worker needs of a click (chrome.contextMenus.OnClickData, or the same shape from a test). */
export type MenuClick = Pick<chrome.contextMenus.OnClickData, 'menuItemId' | 'linkUrl' | 'srcUrl' | 'pageUrl' | 'selectionText' | 'frameId'>;

/** Runs in the page: hrefs of links the selection touches, and the selection's text. Self-contained (it is serialized). */
function readSelection(): { hrefs: string[]; text: string } {
  const sel = window.getSelection();
  if (!sel || sel.isCollapsed) return { hrefs: [], text: '' };
  const hrefs: string[] = [];
  for (let i = 0; i < sel.rangeCount; i++) {
    const range = sel.getRangeAt(i);
    const root = range.commonAncestorContainer;
    const scope = root instanceof Element ? root : root.parentElement;
    const inside = scope?.closest('a[href]');
    if (inside) hrefs.push((inside as HTMLAnchorElement).href);
    scope?.querySelectorAll('a[href]').forEach((a) => {
      if (range.intersectsNode(a)) hrefs.push((a as HTMLAnchorElement).href);
    });
  }
  return { hrefs, text: sel.toString() };
}

async function selectionLinks(click: MenuClick, tabId: number | undefined): Promise<string[]> {
  const fromText = linksInText(click.selectionText ?? '');
  if (tabId === undefined || tabId < 0) return fromText;
  try {
    const [frame] = await chrome.scripting.executeScript({ target: { tabId, frameIds: [click.frameId ?? 0] }, func: readSelection });
    const read = frame?.result as { hrefs: string[]; text: string } | undefined;
    if (!read) return fromText;
    // The menu's selectionText may be cut short; the page's own selection is whole.
    return unique([...linksInText(read.text), ...read.hrefs.flatMap((h) => linksInText(h)), ...fromText]);
  } catch {
    // Pages the extension may not script (the browser's own, the web store): the text is all there is.
    return fromText;
  }
}

/** The links to send for a click; empty when it was on nothing Haul can fetch. */
export async function linksOfClick(click: MenuClick, tabId?: number): Promise<string[]> {
  switch (click.menuItemId) {
    case MENU.link:
      return click.linkUrl ? [click.linkUrl] : [];
    case MENU.media:
      return click.srcUrl ? [click.srcUrl] : [];
    case MENU.page:
      return click.pageUrl ? [click.pageUrl] : [];
    case MENU.selection:
      return selectionLinks(click, tabId);
    default:
      return [];
  }
}

/** Adds the items (once, at install or update; the browser keeps them). */
export function installMenus(): void {
  chrome.contextMenus.removeAll(() => {
    chrome.contextMenus.create({ id: MENU.link, title: t('menuLink'), contexts: ['link'] });
    chrome.contextMenus.create({ id: MENU.selection, title: t('menuSelection'), contexts: ['selection'] });
    chrome.contextMenus.create({ id: MENU.media, title: t('menuMedia'), contexts: ['image', 'video', 'audio'] });
    chrome.contextMenus.create({ id: MENU.page, title: t('menuPage'), contexts: ['page'] });
  });
}
