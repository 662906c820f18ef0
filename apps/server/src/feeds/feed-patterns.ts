/**
 * A feed's include and exclude patterns: words matched anywhere in an item's title in any case, `*` standing for
 * anything and `?` for one character; or a regular expression between slashes. A regular expression is checked when
 * saved, so a feed never holds one that cannot run.
 */
import { badInput } from '../http/errors.js';

function compile(pattern: string): RegExp {
  const p = pattern.trim();
  const rx = /^\/(.+)\/([a-z]*)$/s.exec(p);
  if (rx) return new RegExp(rx[1]!, rx[2]!.includes('i') ? rx[2] : `${rx[2]}i`);
  const body = p.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(body, 'i');
}

/** The patterns as kept: trimmed, empty ones left out, each checked. */
export function cleanPatterns(patterns: string[] | undefined): string[] {
  const clean = [...new Set((patterns ?? []).map((p) => p.trim()).filter(Boolean))];
  for (const p of clean) {
    try {
      compile(p);
    } catch (err) {
      throw badInput(`The pattern "${p.slice(0, 200)}" is not a valid regular expression: ${(err as Error).message}`);
    }
  }
  return clean;
}

/** Why an item with this title is left out ('' when it passes). */
export function skipReason(title: string, include: string[], exclude: string[]): string {
  const out = exclude.find((p) => compile(p).test(title));
  if (out) return `Matches the exclude pattern "${out}".`;
  if (include.length && !include.some((p) => compile(p).test(title))) return 'Matches none of the include patterns.';
  return '';
}
