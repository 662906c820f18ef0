/** The links in what another app shared: a share often sends a page title and "text with a link" instead of `url`. */

const LINK = /(?:https?:\/\/|magnet:\?)[^\s<>"'`]+/gi;

/** A link written at the end of a sentence loses the sentence's punctuation; a bracket it opened itself stays. */
function trimEnd(link: string): string {
  let out = link.replace(/[.,;:!?]+$/, '');
  for (const [open, close] of [
    ['(', ')'],
    ['[', ']'],
  ] as const) {
    while (out.endsWith(close) && out.split(open).length < out.split(close).length) out = out.slice(0, -1).replace(/[.,;:!?]+$/, '');
  }
  return out;
}

/** Every http(s) and magnet link in `parts` (url, text, title), in order, each once. */
export function sharedLinks(...parts: string[]): string[] {
  const seen = new Set<string>();
  for (const part of parts) for (const m of part.matchAll(LINK)) seen.add(trimEnd(m[0]));
  return [...seen].filter((l) => !/^(https?:\/\/|magnet:\?)$/i.test(l));
}
