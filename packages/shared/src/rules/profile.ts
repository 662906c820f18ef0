/**
 * The profile a person edits (/account/basic): the display name's rule and the built-in avatars. Avatars are pictures
 * the web app ships (`/drive/avatars/N.svg`), stored as `avatar:N`: a user never hands the server an address to fetch
 * or markup to serve from our origin.
 */

export const DISPLAY_NAME_MAX_LENGTH = 64;

/** Characters a name may not hold: controls, line breaks, and the bidirectional overrides that make names lie. */
const FORBIDDEN = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** Why a display name is refused ('empty', 'too_long', 'control'), or null when it fits; check it trimmed. */
export function displayNameProblem(name: string): 'empty' | 'too_long' | 'control' | null {
  if (!name) return 'empty';
  if ([...name].length > DISPLAY_NAME_MAX_LENGTH) return 'too_long';
  if (FORBIDDEN.test(name)) return 'control';
  return null;
}

export const AVATAR_COUNT = 12;
/** The built-in avatars' ids, in the order the picker shows them. */
export const AVATAR_IDS: readonly string[] = Array.from({ length: AVATAR_COUNT }, (_, i) => `avatar:${i + 1}`);

/** The same-origin path of a built-in avatar, or '' for none (or an id no longer shipped). */
export function avatarPath(id: string | null | undefined): string {
  const n = /^avatar:(\d{1,2})$/.exec(id ?? '')?.[1];
  return n && AVATAR_IDS.includes(`avatar:${n}`) ? `/drive/avatars/${n}.svg` : '';
}
