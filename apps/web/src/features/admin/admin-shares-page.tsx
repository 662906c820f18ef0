/**
 * Shares (/admin/shares): the operator pastes a share's link or id (kept in the address as `id`) and sees the share:
 * its title, owner, status, save limit and counts; then holds it with a reason, releases it or sets its save limit.
 * Below, the links visitors open and save most, and the blocked words, which hold for every new share and change.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { formatTime } from '../files/format-time';
import { getShare, shareKey, type AdminShare } from './admin-api';
import { BlockedWords } from './blocked-words-form';
import { isHeld, shareStatusText } from './share-hold';
import { SaveLimitForm, ShareHoldForm } from './share-hold-form';
import { shareIdOf } from './share-input';
import { sizeText } from './storage-size';
import { TopShares } from './top-shares';

/** What the share is and how it is held, as facts. */
function ShareFacts({ share }: { share: AdminShare }) {
  const { t, i18n } = useTranslation();
  const count = (n: string) => Number(n).toLocaleString(i18n.language);
  const held = isHeld(share.status);
  return (
    <section className="admin-card" aria-labelledby="admin-share-title">
      <h2 id="admin-share-title">{t('admin.share.facts')}</h2>
      <dl className="admin-facts">
        <dt>{t('admin.share.title')}</dt>
        <dd>{share.title}</dd>
        <dt>{t('admin.share.owner')}</dt>
        <dd>
          {share.user_email ? (
            <Link className="link" to={`/admin/users/${encodeURIComponent(share.user_id)}`}>
              {share.user_email}
            </Link>
          ) : (
            t('audit.deletedAccount')
          )}
        </dd>
        <dt>{t('admin.users.status')}</dt>
        <dd>
          <span className={held ? 'admin-badge off' : 'admin-badge'} data-testid="share-status">
            {shareStatusText(t, share.status)}
          </span>
        </dd>
        {held && (
          <>
            <dt>{t('admin.share.reason')}</dt>
            <dd>{share.reason || '—'}</dd>
          </>
        )}
        <dt>{t('share.kind')}</dt>
        <dd>{share.share_to === 'publiclink' ? t('share.public') : t('share.withCode')}</dd>
        <dt>{t('admin.share.limit')}</dt>
        <dd data-testid="share-limit">{Number(share.restore_limit) ? count(share.restore_limit) : t('admin.share.noLimit')}</dd>
        <dt>{t('share.saves')}</dt>
        <dd>{count(share.restore_count)}</dd>
        <dt>{t('share.views')}</dt>
        <dd>{count(share.view_count)}</dd>
        <dt>{t('admin.share.items')}</dt>
        <dd>{count(share.file_count)}</dd>
        <dt>{t('admin.share.size')}</dt>
        <dd>{sizeText(Number(share.file_size), i18n.language)}</dd>
        <dt>{t('share.created')}</dt>
        <dd>{formatTime(share.created_time, i18n.language)}</dd>
        <dt>{t('admin.share.expires')}</dt>
        <dd>{share.expiration_at ? formatTime(share.expiration_at, i18n.language) : t('share.neverExpires')}</dd>
      </dl>
      <p>
        <a className="link" href={`/s/${encodeURIComponent(share.share_id)}`} target="_blank" rel="noreferrer">
          {t('admin.share.open')}
        </a>
      </p>
    </section>
  );
}

/** The share named in the address, with its hold and its save limit. */
function ShareView({ id }: { id: string }) {
  const { t } = useTranslation();
  const share = useQuery({ queryKey: shareKey(id), queryFn: ({ signal }) => getShare(id, signal), retry: false, meta: { quiet: true } });
  if (share.isPending) return <p className="muted">{t('common.loading')}</p>;
  if (share.isError) return <FormError error={errorMessage(share.error)} />;
  const s = share.data;
  return (
    <div className="admin-user-grid">
      <ShareFacts share={s} />
      <section className="admin-card" aria-labelledby="admin-hold-title">
        <h2 id="admin-hold-title">{t('admin.share.hold')}</h2>
        <ShareHoldForm key={`${s.status}:${s.reason}`} share={s} />
      </section>
      <section className="admin-card" aria-labelledby="admin-save-limit-title">
        <h2 id="admin-save-limit-title">{t('admin.share.limit')}</h2>
        <SaveLimitForm key={s.restore_limit} share={s} />
      </section>
    </div>
  );
}

export function AdminSharesPage() {
  const { t } = useTranslation();
  const fieldId = useId();
  const [params, setParams] = useSearchParams();
  const id = params.get('id') ?? '';
  const [typed, setTyped] = useState(id);
  const [error, setError] = useState('');
  // The address changed without the form (back, the section's link): the box shows the share shown.
  const [shown, setShown] = useState(id);
  if (id !== shown) {
    setShown(id);
    setTyped(id);
    setError('');
  }

  const find = (e: FormEvent) => {
    e.preventDefault();
    const found = shareIdOf(typed);
    if (!found) return setError(t('admin.share.notALink'));
    setTyped(found);
    setShown(found);
    setParams({ id: found });
  };

  return (
    <section className="page admin-page">
      <div className="toolbar">
        <h1 className="crumb current">{t('admin.tabs.shares')}</h1>
      </div>
      <form className="admin-search admin-find" role="search" onSubmit={find} noValidate>
        <div className="field">
          <label htmlFor={fieldId}>{t('admin.share.find')}</label>
          <input
            id={fieldId}
            value={typed}
            onChange={(e) => {
              setTyped(e.target.value);
              setError('');
            }}
            placeholder={t('admin.share.findHint')}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${fieldId}-error` : undefined}
          />
          {error && (
            <small id={`${fieldId}-error`} className="field-error" role="alert">
              {error}
            </small>
          )}
        </div>
        <button className="btn" type="submit">
          {t('admin.share.show')}
        </button>
      </form>
      <div className="admin-shares">
        {id ? <ShareView key={id} id={id} /> : <p className="muted">{t('admin.share.none')}</p>}
        <TopShares />
        <BlockedWords />
      </div>
    </section>
  );
}
