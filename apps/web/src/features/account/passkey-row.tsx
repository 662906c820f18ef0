/** One passkey in the list: its name (renamed in place), when it was added and last used, and its actions. */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PasskeySchema, Static } from '@haul/shared';
import { errorMessage } from '../../lib/error-message';
import { TextField } from '../../components/text-field';
import { formatTime } from '../files/format-time';

type Passkey = Static<typeof PasskeySchema>;

interface Props {
  passkey: Passkey;
  locale: string;
  /** Another form is open or a call runs: the actions wait. */
  busy: boolean;
  onRename: (name: string) => Promise<void>;
  onRemove: () => void;
}

export function PasskeyRow({ passkey: p, locale, busy, onRename, onRemove }: Props) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(p.name);
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const next = name.trim();
    if (!next || [...next].length > 64) return setError(t('passkeys.nameNeeded'));
    setSaving(true);
    try {
      await onRename(next);
      setEditing(false);
      setError('');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };

  if (editing) {
    return (
      <li className="device-row">
        <form className="device-main" onSubmit={(e) => void save(e)} noValidate>
          <TextField label={t('passkeys.nameLabel')} value={name} maxLength={64} onChange={(e) => setName(e.target.value)} error={error} autoFocus />
          <div className="dialog-actions start">
            <button className="btn" type="button" onClick={() => setEditing(false)}>
              {t('common.cancel')}
            </button>
            <button className="btn primary" type="submit" disabled={saving}>
              {t('passkeys.save')}
            </button>
          </div>
        </form>
      </li>
    );
  }

  return (
    <li className="device-row">
      <div className="device-main">
        <strong>{p.name}</strong>
        {p.synced && <span className="badge">{t('passkeys.synced')}</span>}
        <small className="muted">{t('passkeys.added', { time: formatTime(p.created_at, locale) })}</small>
        <small className="muted">{p.last_used_at ? t('passkeys.lastUsed', { time: formatTime(p.last_used_at, locale) }) : t('passkeys.neverUsed')}</small>
      </div>
      <button
        className="btn"
        type="button"
        disabled={busy}
        onClick={() => {
          setName(p.name);
          setEditing(true);
        }}
        aria-label={t('passkeys.renameNamed', { name: p.name })}
      >
        {t('passkeys.rename')}
      </button>
      <button className="btn" type="button" disabled={busy} onClick={onRemove} aria-label={t('passkeys.removeNamed', { name: p.name })}>
        {t('passkeys.remove')}
      </button>
    </li>
  );
}
