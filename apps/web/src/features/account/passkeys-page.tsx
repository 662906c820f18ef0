/**
 * Passkeys (/account/passkeys): the account's passkeys with their names and dates; add one (confirm it is you with the
 * password or a mailed code, then the browser's prompt), rename one in place, remove one (confirming again). An account
 * a sign-in provider made has no password: the confirmation is the mailed code (SudoField).
 */
import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { isApiError } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { TextField } from '../../components/text-field';
import { SudoField } from './sudo-field';
import { useFormRun } from './use-form-run';
import { useSudo } from './use-sudo';
import { addPasskey, listPasskeys, passkeysSupported, promptFailure, removePasskey, renamePasskey } from './passkeys-api';
import { PasskeyRow } from './passkey-row';

type Step = { kind: 'idle' } | { kind: 'add' } | { kind: 'remove'; id: string; name: string };
const NAME_MAX = 64;

export function PasskeysPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: ['passkeys'], queryFn: listPasskeys });
  const sudo = useSudo();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const { busy, errors, setErrors, run } = useFormRun<'password' | 'name'>();
  const supported = passkeysSupported();

  const finish = () => {
    sudo.forget();
    setPassword('');
    setName('');
    setErrors({});
    setStep({ kind: 'idle' });
    void queryClient.invalidateQueries({ queryKey: ['passkeys'] });
  };

  /** The sudo token for what was typed; a refusal is said at the field. */
  const token = async (): Promise<string | null> => {
    const missing = sudo.missing(password);
    if (missing) {
      setErrors({ password: t(missing) });
      return null;
    }
    return sudo.tokenOr(password, (message) => setErrors({ password: message }));
  };

  const add = (e: FormEvent) => {
    e.preventDefault();
    const label = name.trim();
    if ([...label].length > NAME_MAX) return setErrors({ name: t('passkeys.nameNeeded') });
    void run(async () => {
      const sudoToken = await token();
      if (!sudoToken) return;
      try {
        const made = await addPasskey(sudoToken, label || undefined);
        toast.success(t('passkeys.addedToast', { name: made.name }));
        finish();
      } catch (err) {
        const prompt = promptFailure(err);
        if (prompt) return setErrors({ form: t(prompt === 'exists' ? 'passkeys.exists' : 'passkeys.cancelled') });
        if (isApiError(err, 'invalid_grant')) sudo.forget();
        throw err;
      }
    });
  };

  const remove = (id: string, label: string) => (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const sudoToken = await token();
      if (!sudoToken) return;
      try {
        await removePasskey(id, sudoToken);
      } catch (err) {
        if (isApiError(err, 'invalid_grant')) sudo.forget();
        throw err;
      }
      toast.success(t('passkeys.removedToast', { name: label }));
      finish();
    });
  };

  const rename = async (id: string, next: string) => {
    await renamePasskey(id, next);
    toast.success(t('passkeys.renamed'));
    void queryClient.invalidateQueries({ queryKey: ['passkeys'] });
  };

  const confirmFields = (
    <>
      <SudoField sudo={sudo} value={password} onValue={setPassword} error={errors.password} autoFocus={step.kind === 'remove'} />
      <FormError error={errors.form ?? ''} />
    </>
  );

  const passkeys = list.data?.passkeys ?? [];
  return (
    <section className="page">
      <div className="toolbar">
        <h1 id="passkeys-title" className="crumb current">
          {t('passkeys.title')}
        </h1>
      </div>
      <div className="account-form">
        <p className="account-notice">{t('passkeys.lead')}</p>
        {!supported && <p className="account-notice warn">{t('passkeys.unsupported')}</p>}
        {list.isPending && <p className="muted">{t('common.loading')}</p>}
        {list.isError && <FormError error={errorMessage(list.error)} />}
        {list.data && passkeys.length === 0 && <p className="muted">{t('passkeys.none')}</p>}
        {passkeys.length > 0 && (
          <ul className="device-list" aria-label={t('passkeys.listLabel')}>
            {passkeys.map((p) => (
              <PasskeyRow
                key={p.id}
                passkey={p}
                locale={i18n.language}
                busy={busy || step.kind !== 'idle'}
                onRename={(next) => rename(p.id, next)}
                onRemove={() => {
                  setErrors({});
                  setStep({ kind: 'remove', id: p.id, name: p.name });
                }}
              />
            ))}
          </ul>
        )}
        {step.kind === 'idle' && supported && (
          <button className="btn primary" type="button" onClick={() => setStep({ kind: 'add' })}>
            {t('passkeys.add')}
          </button>
        )}
        {step.kind === 'add' && (
          <form onSubmit={add} noValidate aria-label={t('passkeys.add')}>
            <h2>{t('passkeys.add')}</h2>
            <p className="muted">{t('passkeys.confirmAdd')}</p>
            <TextField label={t('passkeys.nameLabel')} hint={t('passkeys.nameHint')} value={name} maxLength={NAME_MAX} onChange={(e) => setName(e.target.value)} error={errors.name} autoFocus />
            {confirmFields}
            <div className="dialog-actions start">
              <button className="btn" type="button" onClick={finish}>
                {t('common.cancel')}
              </button>
              <button className="btn primary" type="submit" disabled={busy}>
                {t('passkeys.create')}
              </button>
            </div>
          </form>
        )}
        {step.kind === 'remove' && (
          <form onSubmit={remove(step.id, step.name)} noValidate aria-label={t('passkeys.removeNamed', { name: step.name })}>
            <p className="account-notice warn">{t('passkeys.confirmRemove', { name: step.name })}</p>
            {confirmFields}
            <div className="dialog-actions start">
              <button className="btn" type="button" onClick={finish}>
                {t('common.cancel')}
              </button>
              <button className="btn danger" type="submit" disabled={busy}>
                {t('passkeys.removeYes')}
              </button>
            </div>
          </form>
        )}
      </div>
    </section>
  );
}
