/** File and folder name rules, checked the same way by the server and the web client. */
import { LIMITS } from '../constants.js';

export type NameProblem = 'empty' | 'dot' | 'slash' | 'control' | 'too_long';

/** NFC-normalises a name and says what is wrong with it, if anything. */
export function checkName(raw: string): { name: string; problem: NameProblem | null } {
  const name = raw.normalize('NFC');
  if (name.trim().length === 0) return { name, problem: 'empty' };
  if (name === '.' || name === '..') return { name, problem: 'dot' };
  if (name.includes('/') || name.includes('\\')) return { name, problem: 'slash' };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return { name, problem: 'control' };
  if (new TextEncoder().encode(name).length > LIMITS.nameMaxBytes) return { name, problem: 'too_long' };
  return { name, problem: null };
}

export const NAME_PROBLEM_TEXT: Record<NameProblem, string> = {
  empty: 'The name must not be empty.',
  dot: 'The name must not be "." or "..".',
  slash: 'The name must not contain "/" or "\\".',
  control: 'The name must not contain control characters.',
  too_long: `The name must not be longer than ${LIMITS.nameMaxBytes} bytes.`,
};

/** "name (A1F3).ext": the suffix used to retry a clashing name once. */
export function withSuffix(name: string, suffix: string): string {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return `${name}(${suffix})`;
  return `${name.slice(0, dot)}(${suffix})${name.slice(dot)}`;
}

/** Four upper-case hex digits, for withSuffix. */
export function randomSuffix(): string {
  return Math.floor(Math.random() * 0x10000)
    .toString(16)
    .toUpperCase()
    .padStart(4, '0');
}
