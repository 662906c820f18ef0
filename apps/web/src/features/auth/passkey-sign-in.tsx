/**
 * Signing in with a passkey on the sign-in page: the browser offers the passkeys it holds for this site in the sign-in
 * field's suggestions (conditional UI: the field says `autocomplete="username webauthn"`), and a "Sign in with a
 * passkey" button asks for one in the browser's own dialog. Either way the server's answer is an ordinary session,
 * both factors counted. The WebAuthn library loads after the page, only where the browser can use passkeys.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { haul } from '../../lib/api-client';
import { isApiError } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { passkeysSupported, promptFailure } from '../account/passkeys-api';

/** Options for one sign-in (a fresh challenge). */
const signInOptions = async () => (await haul.call('passkeySignInOptions', { body: {} })).options as unknown as PublicKeyCredentialRequestOptionsJSON;

/** One sign-in: the browser's prompt (or the field's suggestion) for `options`, then the server's check. */
async function passkeySignIn(options: PublicKeyCredentialRequestOptionsJSON, autofill: boolean): Promise<void> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const credential = await startAuthentication({ optionsJSON: options, useBrowserAutofill: autofill });
  const tokens = await haul.call('signInWithPasskey', { body: { credential: credential as unknown as Record<string, unknown> } });
  await haul.signIn(tokens);
}

/** Stops whatever passkey prompt or suggestion is waiting (leaving the page, or the button taking over). */
async function cancelPrompt(): Promise<void> {
  const { WebAuthnAbortService } = await import('@simplewebauthn/browser');
  WebAuthnAbortService.cancelCeremony();
}

/** The button, its error, and the field's suggestions while the page shows the sign-in form. */
export function PasskeySignIn({ disabled }: { disabled?: boolean }) {
  const { t } = useTranslation();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const supported = passkeysSupported();
  // Bumped by each new attempt: an older one's outcome (aborted by the newer) is not reported.
  const attempt = useRef(0);

  const say = (err: unknown, quietCancel: boolean) => {
    const prompt = promptFailure(err);
    if (prompt === 'cancelled') {
      if (!quietCancel) setError(t('passkeys.signInCancelled'));
      return;
    }
    setError(isApiError(err, 'invalid_grant') ? t('passkeys.signInRefused') : errorMessage(err));
  };

  /**
   * Offers passkeys in the field's suggestions until one is picked. A refusal is said and not offered again at once
   * (an authenticator that answers by itself would go round); the button, or the next visit, offers them anew.
   */
  const suggest = async () => {
    const { browserSupportsWebAuthnAutofill } = await import('@simplewebauthn/browser');
    if (!(await browserSupportsWebAuthnAutofill())) return;
    const mine = ++attempt.current;
    let options;
    try {
      options = await signInOptions();
    } catch {
      // Nothing was asked of the person: the field simply offers no passkeys (a busy network, an address that cannot).
      return;
    }
    // Left, or the button took over, while the options came.
    if (mine !== attempt.current) return;
    try {
      await passkeySignIn(options, true);
    } catch (err) {
      if (mine === attempt.current) say(err, true);
    }
  };

  useEffect(() => {
    if (!supported) return;
    const attempts = attempt;
    void suggest();
    return () => {
      attempts.current++;
      void cancelPrompt();
    };
    // Once per visit of the form.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [supported]);

  if (!supported) return null;

  const ask = async () => {
    const mine = ++attempt.current;
    setBusy(true);
    setError('');
    try {
      await passkeySignIn(await signInOptions(), false);
    } catch (err) {
      if (mine !== attempt.current) return;
      say(err, false);
      // The field offers passkeys again, for another one the browser holds.
      void suggest();
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button className="btn wide" type="button" style={{ marginTop: 8 }} disabled={disabled || busy} onClick={() => void ask()}>
        {t('passkeys.signIn')}
      </button>
      {error && (
        <small className="field-error" role="alert">
          {error}
        </small>
      )}
    </>
  );
}
