/**
 * The sudo token a sensitive change takes, earned with the current password and kept while it lasts: another try after
 * a failed change (a refused new password, a network failure) does not check, and count, the password again.
 */
import { useRef } from 'react';
import { grantSudo } from '../auth/auth-api';

/** A sudo token lasts minutes; one within a few seconds of its end is not worth sending. */
const SUDO_MARGIN_MS = 10_000;

export function useSudo() {
  const held = useRef<{ token: string; until: number } | null>(null);
  return {
    /** The kept token, or a new one for `password` (throws the server's refusal of the password). */
    token: async (password: string): Promise<string> => {
      if (held.current && held.current.until - Date.now() > SUDO_MARGIN_MS) return held.current.token;
      const granted = await grantSudo(password);
      held.current = { token: granted.sudo_token, until: Date.now() + granted.expires_in * 1000 };
      return granted.sudo_token;
    },
    /** Drops the kept token: the password typed changed, the change is made, or the server refused the token. */
    forget: () => {
      held.current = null;
    },
  };
}
