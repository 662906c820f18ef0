/** File and folder name rules, checked the same way by the server and the web client. */
import { LIMITS } from '../constants.js';

export type NameProblem = 'empty' | 'dot' | 'slash' | 'control' | 'invisible' | 'too_long';

/**
 * Direction overrides and isolates (U+202A–202E, U+2066–2069) make "gpj.exe" read as "exe.jpg"; zero-width spaces and
 * the BOM (U+200B, U+2060, U+FEFF) make two names look alike. None has a use in a file name. The joiners U+200C/U+200D
 * stay: Persian, Indic scripts and emoji sequences need them.
 */
const INVISIBLE = /[\u202a-\u202e\u2066-\u2069\u200b\u2060\ufeff]/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const bytes = (s: string) => new TextEncoder().encode(s).length;

/** The longest start of `s` (whole code points) that fits in `max` UTF-8 bytes. */
function fitBytes(s: string, max: number): string {
  if (bytes(s) <= max) return s;
  const points = Array.from(s);
  while (points.length && bytes(points.join('')) > max) points.pop();
  return points.join('');
}

/** NFC-normalises a name and says what is wrong with it, if anything. */
export function checkName(raw: string): { name: string; problem: NameProblem | null } {
  const name = raw.normalize('NFC');
  if (name.trim().length === 0) return { name, problem: 'empty' };
  if (name === '.' || name === '..') return { name, problem: 'dot' };
  if (name.includes('/') || name.includes('\\')) return { name, problem: 'slash' };
  if (CONTROL.test(name)) return { name, problem: 'control' };
  if (INVISIBLE.test(name)) return { name, problem: 'invisible' };
  if (bytes(name) > LIMITS.nameMaxBytes) return { name, problem: 'too_long' };
  return { name, problem: null };
}

export const NAME_PROBLEM_TEXT: Record<NameProblem, string> = {
  empty: 'The name must not be empty.',
  dot: 'The name must not be "." or "..".',
  slash: 'The name must not contain "/" or "\\".',
  control: 'The name must not contain control characters.',
  invisible: 'The name must not contain invisible characters that change how it reads (direction overrides, zero-width spaces).',
  too_long: `The name must not be longer than ${LIMITS.nameMaxBytes} bytes.`,
};

/**
 * A name from a stranger (a torrent, a web server) made into a valid one, keeping what it can: control and invisible
 * characters dropped, slashes replaced, cut to the byte limit. `fallback` when nothing usable is left.
 */
export function cleanName(raw: string, fallback: string): string {
  const s = fitBytes(
    raw
      .normalize('NFC')
      .replace(new RegExp(CONTROL.source, 'g'), '')
      .replace(new RegExp(INVISIBLE.source, 'g'), '')
      .replace(/[\\/]/g, '_')
      .trim(),
    LIMITS.nameMaxBytes,
  ).trim();
  return s === '' || s === '.' || s === '..' ? fallback : s;
}

/**
 * "name (A1F3).ext": the suffix that tells a clashing name apart, after a space as desktops and other drives write it,
 * the base shortened so the whole stays a valid name.
 */
export function withSuffix(name: string, suffix: string): string {
  const dot = name.lastIndexOf('.');
  const [base, ext] = dot <= 0 ? [name, ''] : [name.slice(0, dot), name.slice(dot)];
  const tail = ` (${suffix})${ext}`;
  const room = LIMITS.nameMaxBytes - bytes(tail);
  // An extension so long that nothing fits beside it is cut too, rather than making a name over the limit.
  if (room < 1) return fitBytes(`${fitBytes(base, 1)}${tail}`, LIMITS.nameMaxBytes);
  return `${fitBytes(base, room)}${tail}`;
}

/** The suffix forms of `name` before names took a space ("name(1).ext"), which earlier versions wrote. */
export function withOldSuffix(name: string, suffix: string): string {
  return withSuffix(name, suffix).replace(` (${suffix})`, `(${suffix})`);
}

/** Four upper-case hex digits, for withSuffix. */
export function randomSuffix(): string {
  return Math.floor(Math.random() * 0x10000)
    .toString(16)
    .toUpperCase()
    .padStart(4, '0');
}
