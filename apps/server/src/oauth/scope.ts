/** An app's scope: a set of the seeds' words (user, pan, offline), written space-separated in a fixed order. */
import { OAUTH_SCOPES, type OAuthScope } from '@haul/shared';

const WORDS: Record<OAuthScope, string> = {
  user: "See your account's name and e-mail address.",
  pan: 'See, add, change and delete the files and folders in your drive, its shares, cloud downloads and history.',
  offline: 'Stay connected when you are away, until you disconnect it.',
};

/** The scope words in `raw` (separated by spaces or '+', as the seeds write "user+pan+offline"), or null if any is unknown or none came. */
export function parseScope(raw: string | undefined): OAuthScope[] | null {
  const words = (raw ?? '').split(/[\s+]+/).filter(Boolean);
  if (!words.length || words.some((w) => !(OAUTH_SCOPES as readonly string[]).includes(w))) return null;
  return OAUTH_SCOPES.filter((s) => words.includes(s));
}

/** The stored and answered form: space-separated, in a fixed order. */
export const formatScope = (scope: readonly string[]): string => OAUTH_SCOPES.filter((s) => scope.includes(s)).join(' ');

/** Whether `granted` (stored form) covers every word of `asked`. */
export const scopeCovers = (granted: string, asked: readonly string[]): boolean => asked.every((s) => granted.split(' ').includes(s));

/** Each word with what it lets the app do, for the consent screen and the connected apps list. */
export const scopeItems = (scope: string) => (parseScope(scope) ?? []).map((name) => ({ name, description: WORDS[name] }));
