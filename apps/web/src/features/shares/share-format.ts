/** Words and numbers of share links: time left, capped counts, the text people paste, and copying it. */
import { LIMITS } from '@haul/shared/plain';
import type { ShareEntry } from '@haul/shared';

/** Seed 000 §4: never, N days left (rounded up, as the server counts), or hours left (at least 1); null once expired. */
export function expiryLeft(
  e: Pick<ShareEntry, 'expiration_at' | 'expiration_left_seconds'>,
): 'never' | { days: number } | { hours: number } | null {
  if (e.expiration_at === '-1') return 'never';
  const seconds = Number(e.expiration_left_seconds);
  if (!(seconds > 0)) return null;
  return seconds >= 86400 ? { days: Math.ceil(seconds / 86400) } : { hours: Math.max(1, Math.ceil(seconds / 3600)) };
}

/** View and save counts as shown: exact up to 999999, then "999999+". */
export function capCount(n: string | number): string {
  const v = Number(n);
  return v > LIMITS.countDisplayCap ? `${LIMITS.countDisplayCap}+` : String(v);
}

/** What the owner pastes: the link, and the pass code only when the link has one. */
export function shareMessage(e: Pick<ShareEntry, 'title' | 'share_url' | 'pass_code'>, words: { link: string; code: string }): string {
  const lines = [e.title, `${words.link}: ${e.share_url}`];
  if (e.pass_code) lines.push(`${words.code}: ${e.pass_code}`);
  return lines.join('\n');
}

const flat = (s: string) => s.replace(/\r?\n/g, '');

/**
 * Copies text and checks it arrived by reading it back (line breaks ignored, seed 000 §5); falls back to a hidden
 * text area and the copy command where the clipboard API is missing or refused. True when the text was copied.
 */
export async function copyText(text: string, doc: Document = document): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    try {
      if (flat(await navigator.clipboard.readText()) === flat(text)) return true;
    } catch {
      // Reading back may need a permission the page lacks; the write itself succeeded.
      return true;
    }
  } catch {
    /* fall back below */
  }
  const area = doc.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  doc.body.appendChild(area);
  area.select();
  try {
    return doc.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}
