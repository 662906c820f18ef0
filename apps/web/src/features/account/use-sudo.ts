/**
 * The sudo token a sensitive change takes, earned with the current password or with a code mailed to the account's
 * own address (DELETION before deleting the account, DEFAULT otherwise), and kept while it lasts: another try after a
 * failed change (a refused new password, a network failure) does not check, and count, the proof again. An account
 * without a password (made by a sign-in provider) has only the code.
 */
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { checkCode, grantSudo, grantSudoByCode, sendOwnCode } from '../auth/auth-api';
import type { SentCode } from '../auth/use-code-step';
import { CODE_LENGTH } from '../auth/code-text';
import { listLinkedProviders } from '../providers/providers-api';
import { isPasswordRefusal } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';

/** A sudo token lasts minutes; one within a few seconds of its end is not worth sending. */
const SUDO_MARGIN_MS = 10_000;

export type SudoUsage = 'DEFAULT' | 'DELETION';
export type Sudo = ReturnType<typeof useSudo>;

export function useSudo(usage: SudoUsage = 'DEFAULT') {
  const held = useRef<{ token: string; until: number } | null>(null);
  // A checked code is spent: its verification token is kept for another try (a second factor asked and cancelled).
  const checked = useRef<string | null>(null);
  const linked = useQuery({ queryKey: ['linkedProviders'], queryFn: listLinkedProviders, staleTime: 60_000, meta: { quiet: true } });
  const hasPassword = linked.data?.has_password ?? true;
  const [byCode, setByCode] = useState(false);
  const [sent, setSent] = useState<(SentCode & { channel: 'email' | 'sms' }) | null>(null);
  const [code, setCodeText] = useState('');
  const mode: 'password' | 'code' = hasPassword && !byCode ? 'password' : 'code';
  const forget = () => {
    held.current = null;
  };
  /** The kept token, or a new one for `password` or the code typed (throws the server's refusal of either). */
  const token = async (password: string): Promise<string> => {
    if (held.current && held.current.until - Date.now() > SUDO_MARGIN_MS) return held.current.token;
    let granted;
    if (mode === 'password') granted = await grantSudo(password);
    else {
      checked.current ??= await checkCode(sent?.verification_id ?? '', code);
      granted = await grantSudoByCode(checked.current);
      checked.current = null;
    }
    held.current = { token: granted.sudo_token, until: Date.now() + granted.expires_in * 1000 };
    return granted.sudo_token;
  };
  return {
    usage,
    mode,
    hasPassword,
    sent,
    code,
    /** Confirms with a mailed code instead of the password (or back). */
    useCode: (on: boolean) => {
      setByCode(on);
      forget();
    },
    /** Mails a code to the account's own address, or texts it to its own number; a new one replaces the one before. */
    send: async (channel: 'email' | 'sms' = 'email') => {
      setSent({ ...(await sendOwnCode(usage, channel)), channel });
      setCodeText('');
      checked.current = null;
      forget();
    },
    setCode: (c: string) => {
      setCodeText(c);
      checked.current = null;
      forget();
    },
    /** What is missing before a token can be asked for (a key of the words), or null. */
    missing: (password: string): string | null => {
      if (mode === 'password') return password ? null : 'account.enterCurrent';
      if (!sent) return 'account.sudoCode.sendFirst';
      return code.length === CODE_LENGTH ? null : 'auth.codeIncomplete';
    },
    token,
    /** The token as `token` gets it, or null with the refusal of the proof handed to `refuse` (to say at its field). */
    tokenOr: async (password: string, refuse: (message: string) => void): Promise<string | null> => {
      try {
        return await token(password);
      } catch (err) {
        if (!isPasswordRefusal(err)) throw err;
        refuse(errorMessage(err));
        return null;
      }
    },
    /** Drops the kept token: the proof typed changed, the change is made, or the server refused the token. */
    forget,
  };
}
