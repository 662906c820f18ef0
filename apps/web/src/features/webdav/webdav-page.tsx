/**
 * WebDAV (/account/webdav): the address to give a file manager or rclone, with a copy button and how to connect from
 * each system, and the app passwords: one per device, made with a name, shown once, revoked after a confirmation.
 */
import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { TextField } from '../../components/text-field';
import { formatTime } from '../files/format-time';
import { useCredentialSudo } from '../account/use-credential-sudo';
import { createAppPassword, revokeAppPassword, webdavInfo } from './webdav-api';

function CopyLine({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  const copy = () => void navigator.clipboard.writeText(value).then(() => toast.success(t('webdav.copied')), () => toast.error(t('webdav.copyFailed')));
  return (
    <div className="field">
      <span className="muted">{label}</span>
      <div className="dialog-actions start">
        <code className="secret-key" aria-label={label}>{value}</code>
        <button className="btn" type="button" onClick={copy} aria-label={t('webdav.copyNamed', { what: label })}>
          {t('webdav.copy')}
        </button>
      </div>
    </div>
  );
}

function HowTo({ url, username }: { url: string; username: string }) {
  const { t } = useTranslation();
  const host = url.replace(/^https?:\/\//, '');
  const steps: [string, string][] = [
    ['macOS', t('webdav.howMac', { url })],
    ['Windows', t('webdav.howWindows', { url })],
    ['Linux', t('webdav.howLinux', { url: `dav${url.startsWith('https') ? 's' : ''}://${host}` })],
    ['rclone', t('webdav.howRclone')],
  ];
  return (
    <section className="webdav-howto" aria-labelledby="webdav-how">
      <h2 id="webdav-how">{t('webdav.howTitle')}</h2>
      <dl>
        {steps.map(([system, words]) => (
          <div key={system}>
            <dt>
              <strong>{system}</strong>
            </dt>
            <dd>{words}</dd>
          </div>
        ))}
      </dl>
      <pre className="muted webdav-command">{`rclone config create haul webdav vendor=owncloud url=${url} user=${username} pass=$(rclone obscure 'APP-PASSWORD')`}</pre>
    </section>
  );
}

export function WebdavPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const info = useQuery({ queryKey: ['webdav'], queryFn: webdavInfo });
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<{ name: string; password: string } | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const confirm = useCredentialSudo();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['webdav'] });

  const create = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setError(t('webdav.nameNeeded'));
    setBusy(true);
    setError('');
    try {
      const token = await confirm.token();
      if (token === null) return;
      const res = await createAppPassword(name.trim(), token);
      setMade({ name: res.app_password.name, password: res.password });
      setName('');
      confirm.reset();
    } catch (err) {
      confirm.refused(err);
      setError(errorMessage(err));
    } finally {
      setBusy(false);
      refresh();
    }
  };

  const revoke = async (id: string, label: string) => {
    setBusy(true);
    try {
      await revokeAppPassword(id);
      toast.success(t('webdav.revoked', { name: label }));
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
      setConfirming(null);
      refresh();
    }
  };

  return (
    <section className="page">
      <div className="toolbar">
        <h1 id="webdav-title" className="crumb current">
          {t('webdav.title')}
        </h1>
      </div>
      <div className="account-form">
        <p className="account-notice">{t('webdav.lead')}</p>
        {info.isPending && <p className="muted">{t('common.loading')}</p>}
        {info.isError && <FormError error={errorMessage(info.error)} />}
        {info.data && (
          <>
            {!info.data.available && <p className="account-notice warn">{t('webdav.premiumOnly')}</p>}
            <CopyLine label={t('webdav.address')} value={info.data.url} />
            <CopyLine label={t('webdav.username')} value={info.data.username} />
            <h2 id="app-passwords">{t('webdav.passwordsTitle')}</h2>
            <p className="muted">{t('webdav.passwordsLead')}</p>
            {made && (
              <div className="account-notice warn" role="status">
                <p>{t('webdav.shownOnce', { name: made.name })}</p>
                <CopyLine label={t('webdav.newPassword')} value={made.password} />
                <button className="btn primary" type="button" onClick={() => setMade(null)}>
                  {t('webdav.done')}
                </button>
              </div>
            )}
            <form onSubmit={(e) => void create(e)} noValidate>
              <TextField label={t('webdav.nameLabel')} hint={t('webdav.nameHint')} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} error={error} />
              {confirm.field}
              <button className="btn primary" type="submit" disabled={busy}>
                {t('webdav.create')}
              </button>
            </form>
            {info.data.app_passwords.length === 0 && <p className="muted">{t('webdav.none')}</p>}
            {info.data.app_passwords.length > 0 && (
              <ul className="device-list" aria-labelledby="app-passwords">
                {info.data.app_passwords.map((p) => (
                  <li key={p.id} className="device-row">
                    <div className="device-main">
                      <strong>{p.name}</strong>
                      <small className="muted">{t('webdav.created', { time: formatTime(p.created_time, i18n.language) })}</small>
                      <small className="muted">{p.last_used_time ? t('webdav.lastUsed', { time: formatTime(p.last_used_time, i18n.language) }) : t('webdav.neverUsed')}</small>
                    </div>
                    {confirming === p.id ? (
                      <div className="dialog-actions" role="group" aria-label={t('webdav.confirmRevoke', { name: p.name })}>
                        <span>{t('webdav.confirmRevoke', { name: p.name })}</span>
                        <button className="btn danger" type="button" disabled={busy} onClick={() => void revoke(p.id, p.name)}>
                          {t('webdav.revokeYes')}
                        </button>
                        <button className="btn" type="button" onClick={() => setConfirming(null)}>
                          {t('common.cancel')}
                        </button>
                      </div>
                    ) : (
                      <button className="btn" type="button" onClick={() => setConfirming(p.id)} aria-label={t('webdav.revokeNamed', { name: p.name })}>
                        {t('webdav.revoke')}
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
            <HowTo url={info.data.url} username={info.data.username} />
          </>
        )}
      </div>
    </section>
  );
}
