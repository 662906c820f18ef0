/**
 * The password asked before a lasting way into the account is made (an app password, a device approval, an app
 * allowed): the server wants a sudo token for it when the account has a password. An account without one (made by a
 * sign-in provider) sees no field. Until it is known whether the account has a password, the field shows.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isApiError, isPasswordRefusal } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { listLinkedProviders } from '../providers/providers-api';
import { CurrentPasswordField } from './current-password-field';
import { useSudo } from './use-sudo';


export function useCredentialSudo() {
  const { t } = useTranslation();
  const sudo = useSudo();
  const linked = useQuery({ queryKey: ['linkedProviders'], queryFn: listLinkedProviders, staleTime: 0, meta: { quiet: true } });
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const needed = linked.data?.has_password ?? true;
  return {
    field: needed ? <CurrentPasswordField value={password} onValue={setPassword} sudo={sudo} error={error} /> : null,
    /**
     * The sudo token to send, or undefined when the account has no password. Null when the password is missing or was
     * refused (said at the field); other failures are thrown.
     */
    token: async (): Promise<string | undefined | null> => {
      setError('');
      if (!needed) return undefined;
      if (!password) {
        setError(t('account.enterCurrent'));
        return null;
      }
      try {
        return await sudo.token(password);
      } catch (err) {
        if (!isPasswordRefusal(err)) throw err;
        setError(errorMessage(err));
        return null;
      }
    },
    /** The server refused the token (expired meanwhile): the next try asks for a new one. */
    refused: (err: unknown) => {
      if (isApiError(err, 'invalid_grant')) sudo.forget();
    },
    /** After success: the field empties for the next one. */
    reset: () => {
      setPassword('');
      setError('');
    },
  };
}
