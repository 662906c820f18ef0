/**
 * Signed-in devices (/account/devices): every session of the account, this one marked, each other with "Sign out",
 * which asks for the password once (a sudo token kept while it lasts); and sign out everywhere. A device signed in
 * by code (a TV, the command line) shows the name it gave; browsers are named from their user agent. Under each, what
 * was approved or made from it (devices, apps, app passwords), which signing it out here ends too.
 */
import { useState, type FormEvent } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { isApiError, isPasswordRefusal } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { useSubmit } from '../../components/use-submit';
import { useSignOut } from '../auth/use-sign-out';
import { formatTime } from '../files/format-time';
import { useSudo } from '../account/use-sudo';
import { endSession, listSessions } from './devices-api';
import { CurrentPasswordField } from '../account/current-password-field';

type Session = Awaited<ReturnType<typeof listSessions>>[number];

const BORN_KEY = { device: 'devices.bornDevice', app: 'devices.bornApp', app_password: 'devices.bornAppPassword' } as const;

/** What a session approved or made, as one line ("Living room TV (device), NAS (app password)"). */
function useBornList() {
  const { t } = useTranslation();
  return (s: Session) => s.born.map((b) => t(BORN_KEY[b.kind], { name: b.name })).join(', ');
}

/** Asks for the password, then ends the session; the dialog stays, with the error, until it worked or is closed. */
function SignOutDevice({ session, onClose }: { session: Session; onClose: (done: boolean) => void }) {
  const { t } = useTranslation();
  const bornList = useBornList();
  const sudo = useSudo();
  const [password, setPassword] = useState('');
  const { busy, error, setError, submit: send } = useSubmit<{ password?: string; form?: string }>({});
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!password) return setError({ password: t('account.enterCurrent') });
    await send(
      async () => {
        let token: string;
        try {
          token = await sudo.token(password);
        } catch (err) {
          if (isPasswordRefusal(err)) return setError({ password: errorMessage(err) });
          throw err;
        }
        await endSession(session.id, token).catch((err) => {
          // Ended meanwhile (signed out on the device itself): what the person wanted has happened.
          if (!isApiError(err, 'file_not_found')) throw err;
        });
        toast.success(t('devices.signedOut', { device: session.device }));
        onClose(true);
      },
      (err) => ({ form: errorMessage(err) }),
    );
  };
  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose(false)}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <form onSubmit={submit} noValidate>
            <Dialog.Title className="dialog-title">{t('devices.signOutTitle', { device: session.device })}</Dialog.Title>
            <Dialog.Description>{t('devices.signOutBody')}</Dialog.Description>
            {session.born.length > 0 && <p className="account-notice warn">{t('devices.alsoEnds', { list: bornList(session) })}</p>}
            <CurrentPasswordField value={password} onValue={setPassword} error={error.password} autoFocus />
            <FormError error={error.form ?? ''} />
            <div className="dialog-actions">
              <button className="btn" type="button" onClick={() => onClose(false)}>
                {t('common.cancel')}
              </button>
              <button className="btn primary" type="submit" disabled={busy}>
                {t('devices.signOut')}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export function DevicesPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: ['sessions'], queryFn: listSessions, meta: { quiet: true } });
  const [ending, setEnding] = useState<Session | null>(null);
  const bornList = useBornList();

  const signOut = useSignOut();

  return (
    <section className="page">
      <div className="toolbar">
        <h1 id="devices-title" className="crumb current">
          {t('devices.title')}
        </h1>
      </div>
      <div className="account-form">
        <p className="account-notice">{t('devices.lead')}</p>
        {sessions.isPending && <p className="muted">{t('common.loading')}</p>}
        {sessions.isError && <FormError error={errorMessage(sessions.error)} />}
        {sessions.data && (
          <ul className="device-list" aria-labelledby="devices-title">
            {sessions.data.map((s) => (
              <li key={s.id} className="device-row">
                <div className="device-main">
                  <strong>{s.device}</strong>
                  {s.current && <span className="badge">{t('devices.thisDevice')}</span>}
                  <small className="muted">
                    {t('devices.seen', { ip: s.ip || '—', time: formatTime(s.last_used_time, i18n.language) })}
                  </small>
                  <small className="muted">{t('devices.since', { time: formatTime(s.created_time, i18n.language) })}</small>
                  {s.born.length > 0 && <small className="muted">{t('devices.born', { list: bornList(s) })}</small>}
                </div>
                {!s.current && (
                  <button className="btn" type="button" onClick={() => setEnding(s)} aria-label={t('devices.signOutNamed', { device: s.device })}>
                    {t('devices.signOut')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        <p>
          <Link className="link" to="/qr-login">
            {t('devices.approveLink')}
          </Link>
        </p>
        <button className="btn" type="button" onClick={() => void signOut(true)}>
          {t('account.signOutEverywhere')}
        </button>
      </div>
      {ending && (
        <SignOutDevice
          session={ending}
          onClose={(done) => {
            setEnding(null);
            if (done) void queryClient.invalidateQueries({ queryKey: ['sessions'] });
          }}
        />
      )}
    </section>
  );
}
