/**
 * What confirms it is you before a sensitive change: the current password, or a code mailed to the account's own
 * address ("Send me a code instead"), or texted to its own number when it has one. An account without a password
 * (made by a sign-in provider) sees only the code.
 * The page keeps the password's text; the code and its sending live in the page's `useSudo`.
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { displayPhoneNumber } from '@haul/shared/phone-numbers';
import { errorMessage } from '../../lib/error-message';
import { getMe } from '../auth/auth-api';
import { CodeField, ResendButton, retryAfter, useCooldown, RESEND_AFTER_SECONDS } from '../auth/code-field';
import { CurrentPasswordField } from './current-password-field';
import type { Sudo } from './use-sudo';

interface Props {
  sudo: Sudo;
  value: string;
  onValue: (password: string) => void;
  /** The refusal of the password or the code, said at its field. */
  error?: string;
  inputRef?: Ref<HTMLInputElement>;
  autoFocus?: boolean;
}

export function SudoField({ sudo, value, onValue, error, inputRef, autoFocus }: Props) {
  const { t } = useTranslation();
  const me = useQuery({ queryKey: ['me'], queryFn: getMe, staleTime: 5 * 60_000 });
  const email = me.data?.email ?? '';
  const phone = me.data?.phone_number ? displayPhoneNumber(me.data.phone_number) : '';
  const cooldown = useCooldown(0);
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState('');

  if (sudo.mode === 'password') {
    return (
      <div className="sudo-field">
        <CurrentPasswordField inputRef={inputRef} value={value} onValue={onValue} sudo={sudo} error={error} autoFocus={autoFocus} />
        <button type="button" className="link sudo-switch" onClick={() => sudo.useCode(true)}>
          {t('account.sudoCode.useCode')}
        </button>
      </div>
    );
  }

  const send = async (channel: 'email' | 'sms' = sudo.sent?.channel ?? 'email') => {
    setSending(true);
    setSendError('');
    try {
      await sudo.send(channel);
      cooldown.start(RESEND_AFTER_SECONDS);
    } catch (err) {
      const wait = retryAfter(err);
      if (wait) cooldown.start(wait);
      setSendError(errorMessage(err));
    } finally {
      setSending(false);
    }
  };

  return (
    <fieldset className="sudo-field sudo-code">
      <legend>{t('account.sudoCode.legend')}</legend>
      {!sudo.hasPassword && <p className="account-notice">{t('account.sudoCode.noPassword')}</p>}
      {sudo.sent ? (
        <>
          <p className="account-notice" role="status">
            {sudo.sent.channel === 'sms' ? t('account.sudoCode.sentText', { phone }) : t('account.sudoCode.sent', { email })}
          </p>
          <CodeField
            label={sudo.sent.channel === 'sms' ? t('account.sudoCode.labelText') : t('account.sudoCode.label')}
            value={sudo.code}
            onChange={sudo.setCode}
            error={error}
            inputRef={inputRef}
          />
          <ResendButton left={cooldown.left} busy={sending} onClick={() => void send()} />
        </>
      ) : (
        <>
          <button type="button" className="btn" disabled={sending} onClick={() => void send('email')}>
            {t('account.sudoCode.send', { email })}
          </button>
          {phone && (
            <button type="button" className="btn" disabled={sending} onClick={() => void send('sms')}>
              {t('account.sudoCode.sendText', { phone })}
            </button>
          )}
          {error && !sendError && (
            <small className="field-error" role="alert">
              {error}
            </small>
          )}
        </>
      )}
      {sendError && (
        <small className="field-error" role="alert">
          {sendError}
        </small>
      )}
      {sudo.hasPassword && (
        <button type="button" className="link sudo-switch" onClick={() => sudo.useCode(false)}>
          {t('account.sudoCode.usePassword')}
        </button>
      )}
    </fieldset>
  );
}
