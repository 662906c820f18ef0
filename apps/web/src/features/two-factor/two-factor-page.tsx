/**
 * Two-factor sign-in (/account/two-factor): turn it on with an authenticator app (the password first, then a QR code
 * and a first code), see how many recovery codes are left, replace them, or turn it off. Recovery codes are shown
 * once, with copy and download, and the page does not move on until the person says they kept them.
 */
import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { isPasswordRefusal } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { TextField } from '../../components/text-field';
import { useFormRun } from '../account/use-form-run';
import { useSudo } from '../account/use-sudo';
import { QrCode } from '../devices/qr-code';
import { beginTwoFactor, disableTwoFactor, enableTwoFactor, replaceRecoveryCodes, twoFactorStatus } from './two-factor-api';
import { CurrentPasswordField } from '../account/current-password-field';

type Action = 'setup' | 'disable' | 'recovery';
type Step = { kind: 'idle' } | { kind: 'confirm'; action: Action } | { kind: 'scan'; secret: string; uri: string } | { kind: 'codes'; codes: string[] };

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const text = `${codes.join('\n')}\n`;
  const download = () => {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    a.download = 'haul-recovery-codes.txt';
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
  return (
    <>
      <p className="account-notice warn">{t('twoFactor.codesLead')}</p>
      <ul className="recovery-codes" aria-label={t('twoFactor.codesLabel')}>
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="dialog-actions start">
        <button className="btn" type="button" onClick={() => void navigator.clipboard.writeText(text).then(() => toast.success(t('twoFactor.copied')))}>
          {t('twoFactor.copy')}
        </button>
        <button className="btn" type="button" onClick={download}>
          {t('twoFactor.download')}
        </button>
        <button className="btn primary" type="button" onClick={onDone}>
          {t('twoFactor.kept')}
        </button>
      </div>
    </>
  );
}

export function TwoFactorPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: ['two-factor'], queryFn: twoFactorStatus, meta: { quiet: true } });
  const sudo = useSudo();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const { busy, errors, setErrors, run } = useFormRun<'password' | 'code'>();

  const finish = () => {
    sudo.forget();
    setPassword('');
    setCode('');
    setStep({ kind: 'idle' });
    void queryClient.invalidateQueries({ queryKey: ['two-factor'] });
  };

  /** The sudo token for the typed password; a refusal is shown at the password. */
  const token = (): Promise<string | null> => sudo.tokenOr(password, (message) => setErrors({ password: message }));

  const confirm = (action: Action) => (e: FormEvent) => {
    e.preventDefault();
    if (!password) return setErrors({ password: t('account.enterCurrent') });
    void run(async () => {
      const sudoToken = await token();
      if (!sudoToken) return;
      if (action === 'setup') {
        const s = await beginTwoFactor(sudoToken);
        setStep({ kind: 'scan', secret: s.secret, uri: s.otpauth_uri });
      } else if (action === 'recovery') {
        setStep({ kind: 'codes', codes: (await replaceRecoveryCodes(sudoToken)).recovery_codes });
      } else {
        await disableTwoFactor(sudoToken);
        toast.success(t('twoFactor.turnedOff'));
        finish();
      }
    });
  };

  const turnOn = (e: FormEvent) => {
    e.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) return setErrors({ code: t('twoFactor.sixDigits') });
    void run(async () => {
      const sudoToken = await token();
      if (!sudoToken) return;
      try {
        const on = await enableTwoFactor(sudoToken, code.trim());
        setStep({ kind: 'codes', codes: on.recovery_codes });
      } catch (err) {
        if (isPasswordRefusal(err)) return setErrors({ code: errorMessage(err) });
        throw err;
      }
    });
  };

  let body;
  if (step.kind === 'codes') body = <RecoveryCodes codes={step.codes} onDone={finish} />;
  else if (step.kind === 'scan') {
    body = (
      <form onSubmit={turnOn} noValidate>
        <p>{t('twoFactor.scan')}</p>
        <QrCode text={step.uri} label={t('twoFactor.qrLabel')} />
        <p className="muted small">
          {t('twoFactor.manualKey')} <code className="secret-key">{step.secret.replace(/(.{4})/g, '$1 ').trim()}</code>
        </p>
        <TextField label={t('twoFactor.codeFromApp')} value={code} onChange={(e) => setCode(e.target.value)} inputMode="numeric" autoComplete="one-time-code" error={errors.code} autoFocus required />
        <FormError error={errors.form ?? ''} />
        <div className="dialog-actions start">
          <button className="btn" type="button" onClick={finish}>
            {t('common.cancel')}
          </button>
          <button className="btn primary" type="submit" disabled={busy}>
            {t('twoFactor.turnOn')}
          </button>
        </div>
      </form>
    );
  } else if (step.kind === 'confirm') {
    body = (
      <form onSubmit={confirm(step.action)} noValidate>
        <p>{t(step.action === 'disable' ? 'twoFactor.confirmOff' : step.action === 'recovery' ? 'twoFactor.confirmRecovery' : 'twoFactor.confirmSetup')}</p>
        <CurrentPasswordField value={password} onValue={setPassword} sudo={sudo} error={errors.password} autoFocus />
        <FormError error={errors.form ?? ''} />
        <div className="dialog-actions start">
          <button className="btn" type="button" onClick={finish}>
            {t('common.cancel')}
          </button>
          <button className={step.action === 'disable' ? 'btn danger' : 'btn primary'} type="submit" disabled={busy}>
            {t(step.action === 'disable' ? 'twoFactor.turnOff' : 'twoFactor.continue')}
          </button>
        </div>
      </form>
    );
  } else if (status.isPending) body = <p className="muted">{t('common.loading')}</p>;
  else if (status.isError) body = <FormError error={errorMessage(status.error)} />;
  else if (!status.data.enabled) {
    body = (
      <>
        <p>{t('twoFactor.offLead')}</p>
        <button className="btn primary" type="button" onClick={() => setStep({ kind: 'confirm', action: 'setup' })}>
          {t('twoFactor.setUp')}
        </button>
      </>
    );
  } else {
    body = (
      <>
        <p role="status">
          <strong>{t('twoFactor.isOn')}</strong> {t('twoFactor.codesLeft', { count: status.data.recovery_codes_left })}
        </p>
        <div className="dialog-actions start">
          <button className="btn" type="button" onClick={() => setStep({ kind: 'confirm', action: 'recovery' })}>
            {t('twoFactor.newCodes')}
          </button>
          <button className="btn danger" type="button" onClick={() => setStep({ kind: 'confirm', action: 'disable' })}>
            {t('twoFactor.turnOff')}
          </button>
        </div>
      </>
    );
  }

  return (
    <section className="page">
      <div className="toolbar">
        <h1 className="crumb current">{t('twoFactor.title')}</h1>
      </div>
      <div className="account-form">{body}</div>
    </section>
  );
}
