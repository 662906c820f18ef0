/**
 * The second step of a sign-in, a sudo grant or a password reset on an account with an authenticator app: the call is
 * made once without a code; when the server answers two_factor_required, a dialog asks for the code and makes the
 * call again with it, showing a wrong code's error in place until it works or the person cancels.
 */
import { useState, type FormEvent } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import i18n from 'i18next';
import { useTranslation } from 'react-i18next';
import { create } from 'zustand';
import { ApiError, isApiError, isPasswordRefusal } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { useSubmit } from '../../components/use-submit';
import { TextField } from '../../components/text-field';

interface Ask {
  attempt: (code: string) => Promise<void>;
  cancel: () => void;
}
const useAsk = create<{ ask: Ask | null }>()(() => ({ ask: null }));

/** Runs `call`; if the account asks for a second factor, asks the person for it and runs `call(code)` until it works. */
export async function withSecondFactor<T>(call: (code?: string) => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!isApiError(err, 'two_factor_required')) throw err;
  }
  return new Promise<T>((resolve, reject) => {
    useAsk.setState({
      ask: {
        attempt: async (code) => {
          const answer = await call(code);
          useAsk.setState({ ask: null });
          resolve(answer);
        },
        cancel: () => {
          useAsk.setState({ ask: null });
          reject(new ApiError(0, 'cancelled', i18n.t('twoFactor.cancelled')));
        },
      },
    });
  });
}

export function SecondFactorDialog() {
  const { t } = useTranslation();
  const ask = useAsk((s) => s.ask);
  const [code, setCode] = useState('');
  const { busy, error, setError, submit: send } = useSubmit<{ code?: string; form?: string }>({});
  if (!ask) return null;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!code.trim()) return setError({ code: t('twoFactor.enterCode') });
    await send(
      async () => {
        await ask.attempt(code.trim());
        setCode('');
      },
      // A wrong or spent code, or too many: said at the field, to try again. Anything else ends the question.
      (err) => (isPasswordRefusal(err) ? { code: errorMessage(err) } : { form: errorMessage(err) }),
    );
  };
  return (
    <Dialog.Root open onOpenChange={(o) => !o && ask.cancel()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <form onSubmit={submit} noValidate>
            <Dialog.Title className="dialog-title">{t('twoFactor.askTitle')}</Dialog.Title>
            <Dialog.Description>{t('twoFactor.askBody')}</Dialog.Description>
            <TextField
              label={t('twoFactor.codeLabel')}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              autoComplete="one-time-code"
              inputMode="text"
              spellCheck={false}
              error={error.code}
              autoFocus
              required
            />
            <FormError error={error.form ?? ''} />
            <div className="dialog-actions">
              <button className="btn" type="button" onClick={ask.cancel}>
                {t('common.cancel')}
              </button>
              <button className="btn primary" type="submit" disabled={busy}>
                {t('twoFactor.verify')}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
