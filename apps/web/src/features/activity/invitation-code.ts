/**
 * The invite code a person arrived with (`/login?invitation-code=CODE`), kept for this tab until an account is made:
 * the sign-up may come after a mailed code or a round trip through a sign-in provider, which leave the page.
 */
const KEY = 'haul.invitation-code';

/** Keeps the code of the link the person came from; only the shape of a code is kept. */
export function keepInvitationCode(code: string | null): string | null {
  const clean = (code ?? '').trim().slice(0, 64);
  if (!clean) return pendingInvitationCode();
  try {
    sessionStorage.setItem(KEY, clean);
  } catch {
    /* storage refused: the code still goes with a sign-up made on this page */
  }
  return clean;
}

/** The code to send with a sign-up, if the person came with one. */
export function pendingInvitationCode(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** Forgets the code once an account was made with it. */
export function dropInvitationCode(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    /* nothing kept */
  }
}
