/**
 * Approve a device sign-in (/qr-login?code=…): what a scanned QR code opens on a signed-in phone, or where a code shown
 * by a TV or the command line is typed. It says which device asks and from where, and warns that approving signs that
 * device in to this account, before the person allows or refuses it.
 */
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { isApiError } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { useSubmit } from '../../components/use-submit';
import { TextField } from '../../components/text-field';
import { Logo } from '../layout/logo';
import { AuthShell } from '../auth/login-page';
import { formatTime } from '../files/format-time';
import { useCredentialSudo } from '../account/use-credential-sudo';
import { answerDeviceLogin, deviceLoginInfo } from './devices-api';

type Outcome = { approved: boolean; device: string } | null;

function CodeForm({ initial, error }: { initial: string; error?: string }) {
  const { t } = useTranslation();
  const [, setParams] = useSearchParams();
  const [typed, setTyped] = useState(initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setParams({ code: typed.trim() });
  };
  return (
    <form onSubmit={submit} noValidate className="qr-form">
      <TextField label={t('devices.codeLabel')} value={typed} onChange={(e) => setTyped(e.target.value)} hint={t('devices.codeHint')} error={error} autoComplete="off" autoCapitalize="characters" spellCheck={false} required autoFocus />
      <button className="btn primary wide" type="submit" disabled={!typed.trim()}>
        {t('devices.continue')}
      </button>
    </form>
  );
}

export function QrLoginPage() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const code = (params.get('code') ?? '').trim();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const { busy, error, submit } = useSubmit();
  const info = useQuery({ queryKey: ['device-login', code], queryFn: () => deviceLoginInfo(code), enabled: !!code && !outcome, retry: false, staleTime: Infinity, meta: { quiet: true } });

  const confirm = useCredentialSudo();

  const answer = (approve: boolean) =>
    submit(
      async () => {
        // Approving signs a device in for a month, so it takes the password; refusing does not.
        const token = approve ? await confirm.token() : undefined;
        if (token === null) return;
        await answerDeviceLogin(code, approve, token);
        setOutcome({ approved: approve, device: info.data?.client_name ?? '' });
      },
      (err) => {
        confirm.refused(err);
        return errorMessage(err);
      },
    );

  let body;
  if (outcome) {
    body = (
      <p role="status" className="account-notice">
        {outcome.approved ? t('devices.approved', { device: outcome.device }) : t('devices.refused', { device: outcome.device })}
      </p>
    );
  } else if (!code) {
    body = <CodeForm initial="" />;
  } else if (info.isPending) {
    body = (
      <p className="muted" role="status">
        {t('common.loading')}
      </p>
    );
  } else if (info.isError) {
    const unknown = isApiError(info.error, 'file_not_found');
    body = <CodeForm key={code} initial={code} error={unknown ? t('devices.codeUnknown') : errorMessage(info.error)} />;
  } else {
    const d = info.data;
    body = (
      <>
        <p className="qr-ask">{t('devices.approveQuestion', { device: d.client_name })}</p>
        <dl className="qr-details">
          <dt>{t('devices.network')}</dt>
          <dd>{d.ip || '—'}</dd>
          <dt>{t('devices.requested')}</dt>
          <dd>{formatTime(d.created_time, i18n.language)}</dd>
        </dl>
        <p className="account-notice warn">{t('devices.approveWarning')}</p>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void answer(true);
          }}
        >
          {confirm.field}
          <FormError error={error} />
          <div className="dialog-actions">
            <button className="btn" type="button" disabled={busy} onClick={() => void answer(false)}>
              {t('devices.deny')}
            </button>
            <button className="btn primary" type="submit" disabled={busy}>
              {t('devices.approve')}
            </button>
          </div>
        </form>
      </>
    );
  }

  return (
    <AuthShell>
      <section className="login-card qr-card" aria-labelledby="qr-login-title">
        <Logo />
        <h1 id="qr-login-title">{t('devices.approveTitle')}</h1>
        {body}
        <p className="login-switch">
          <Link className="link" to="/all">
            {t('devices.toDrive')}
          </Link>
        </p>
      </section>
    </AuthShell>
  );
}
