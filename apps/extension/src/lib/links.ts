/**
 * Which links Haul can fetch, and finding them in text: http(s) addresses and magnet links, the rule the web app's
 * cloud download dialog applies (seed 000 §5: a URL is valid if it starts with http or https).
 */

const FETCHABLE = /^(https?:\/\/\S+|magnet:\?\S+)$/i;
/** Links inside running text: up to a space, a quote or an angle bracket. */
const IN_TEXT = /\b(?:https?:\/\/|magnet:\?)[^\s<>"'`]+/gi;
/** What a sentence may put right after a link without it being part of it. */
const TRAILING = '.,;:!?)]}';

const count = (s: string, c: string) => s.split(c).length - 1;

/** The link without the punctuation of the sentence around it; a closing parenthesis it opened stays ("Film_(1999)"). */
function withoutSentence(link: string): string {
  let end = link.length;
  while (end > 0 && TRAILING.includes(link[end - 1]!)) {
    const body = link.slice(0, end);
    if (link[end - 1] === ')' && count(body, '(') >= count(body, ')')) break;
    end--;
  }
  return link.slice(0, end);
}

/** Whether Haul takes this as one cloud download. */
export const isFetchable = (link: string): boolean => FETCHABLE.test(link.trim());

/** Every http(s) and magnet link in `text`, in order, each once. */
export function linksInText(text: string): string[] {
  return unique((text.match(IN_TEXT) ?? []).map(withoutSentence).filter(isFetchable));
}

/** The same links once each, first place kept. */
export const unique = (links: string[]): string[] => [...new Set(links.map((l) => l.trim()).filter(Boolean))];

/** The lines of a paste box: the links Haul can fetch, and the lines it cannot (to name them). */
export function pastedLines(text: string): { links: string[]; bad: string[] } {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  return { links: unique(lines.filter(isFetchable)), bad: lines.filter((l) => !isFetchable(l)) };
}

/** A magnet link Haul can add. */
export const isMagnet = (link: string): boolean => /^magnet:\?\S+$/i.test(link.trim());

/** An http(s) link whose path names a .torrent file (seed 000 §5: a torrent is a file named *.torrent). */
export function isTorrentLink(link: string): boolean {
  try {
    const url = new URL(link.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && /\.torrent$/i.test(decodeURIComponent(url.pathname));
  } catch {
    return false;
  }
}
