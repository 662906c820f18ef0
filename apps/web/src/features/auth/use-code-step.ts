/**
 * The step that waits for a mailed code (sign-up, forgotten password): the code typed, its verification token once
 * checked, errors in place, sending a new code after a cool-down. A network failure keeps everything typed.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { useSubmit } from '../../components/use-submit';
import { checkCode, sendCode } from './auth-api';
import { RESEND_AFTER_SECONDS, retryAfter, useCooldown } from './code-field';
import { CODE_LENGTH } from './code-text';

export interface SentCode {
  verification_id: string;
  expires_in: number;
}

export function useCodeStep(usage: 'REGISTER' | 'PASSWORD_RESET' | 'SIGN_IN' | 'REGISTER_SIGN_IN', email: string, first: SentCode) {
  const { t } = useTranslation();
  const [sent, setSent] = useState(first);
  const [resent, setResent] = useState(false);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState('');
  const { busy, error: formError, submit } = useSubmit();
  // A checked code is spent: its token is kept for another try after a refused password or a network failure.
  const token = useRef<string | null>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const cooldown = useCooldown(RESEND_AFTER_SECONDS);

  useEffect(() => codeRef.current?.focus(), []);

  const refuseCode = (message: string) => {
    setCodeError(message);
    codeRef.current?.focus();
    codeRef.current?.select();
  };

  /** The verification token, checking the code when there is none yet; null when the code was refused (shown). */
  const verify = async (): Promise<string | null> => {
    if (token.current) return token.current;
    if (code.length !== CODE_LENGTH) {
      refuseCode(t('auth.codeIncomplete'));
      return null;
    }
    try {
      token.current = await checkCode(sent.verification_id, code);
      return token.current;
    } catch (err) {
      if (!isApiError(err, 'invalid_grant')) throw err;
      refuseCode(errorMessage(err));
      return null;
    }
  };

  /** The call the token was for refused it (used, expired): a new code is needed, and the server says so. */
  const tokenRefused = (err: unknown) => {
    token.current = null;
    refuseCode(errorMessage(err));
  };

  /** Runs one call at a time with the buttons disabled; an unexpected failure is shown under the form. */
  const run = async (fn: () => Promise<void>): Promise<void> => {
    await submit(fn, errorMessage);
  };

  const resend = () =>
    run(async () => {
      try {
        const next = await sendCode(usage, email);
        setSent(next);
        setResent(true);
        token.current = null;
        setCode('');
        setCodeError('');
        cooldown.start(RESEND_AFTER_SECONDS);
        codeRef.current?.focus();
      } catch (err) {
        const wait = retryAfter(err);
        if (wait) cooldown.start(wait);
        throw err;
      }
    });

  return {
    code,
    setCode: (c: string) => {
      setCode(c);
      setCodeError('');
    },
    codeError,
    codeRef,
    formError,
    busy,
    minutes: Math.max(1, Math.round(sent.expires_in / 60)),
    resent,
    secondsLeft: cooldown.left,
    verify,
    tokenRefused,
    run,
    resend,
  };
}
