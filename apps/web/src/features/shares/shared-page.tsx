/**
 * /shared: the owner's share links with their counts and time left (or, for a link an operator holds, what was done
 * and why), cancelled one by one or in bulk; /shared/{id}: one link's items, its text to copy again, and its settings.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import type { TFunction } from 'i18next';
import type { ShareEntry } from '@haul/shared';
import { EndSentinel } from '../../components/end-sentinel';
import { errorMessage } from '../../lib/error-message';
import { useDialog } from '../../app/dialogs/dialog-store';
import { EmptyState, Skeleton } from '../files/file-manager-page';
import { runChange } from '../files/file-mutations';
import { FileView } from '../files/file-view';
import { formatTime } from '../files/format-time';
import { Icon } from '../../components/icon';
import { capCount, copyText, shareMessage } from './share-format';
import { useExpiryText } from './share-dialog';
import { cancelShares, getShareEntry, viewShare } from './shares-api';
import { settleShares, useShareList } from './use-shares';

/** A share an operator holds, in its owner's words: what was done to it (every key written out for the key check). */
const HELD_TEXT: Record<string, (t: TFunction) => string> = {
  AUDITING: (t) => t('share.held.auditing'),
  PROHIBITED: (t) => t('share.held.prohibited'),
  SENSITIVE_RESOURCE: (t) => t('share.held.sensitiveResource'),
};

/** What an operator did to the share, or null when it is not held. */
const heldText = (t: TFunction, status: string): string | null => (Object.hasOwn(HELD_TEXT, status) ? HELD_TEXT[status]!(t) : null);

/** What the operator did and why: the server gives the owner their reason as the share's status text. */
function HeldNote({ held, entry }: { held: string; entry: ShareEntry }) {
  return (
    <span className="share-held">
      <strong>{held}</strong>
      {entry.share_status_text && <small>{entry.share_status_text}</small>}
    </span>
  );
}

function useShareActions() {
  const { t } = useTranslation();
  const openDialog = useDialog((s) => s.open);
  return {
    copy: async (e: ShareEntry) => {
      const ok = await copyText(shareMessage(e, { link: t('share.link'), code: t('share.passCode') }));
      if (ok) toast.success(t('share.copied'));
      else toast.error(t('share.copyFailed'));
    },
    manage: (entry: ShareEntry) => openDialog({ type: 'share-manage', entry }),
    cancel: (entries: ShareEntry[], after?: () => void) =>
      openDialog({
        type: 'confirm',
        title: t('share.cancelTitle', { count: entries.length }),
        body: t('share.cancelBody'),
        confirmLabel: t('share.cancel'),
        danger: true,
        onConfirm: async () => {
          if (await runChange(() => cancelShares(entries.map((s) => s.share_id)), t('share.cancelled', { count: entries.length })))
            after?.();
          await settleShares();
        },
      }),
  };
}

export function SharedPage() {
  const { id } = useParams();
  return id ? <ShareDetail shareId={id} /> : <ShareList />;
}

function ShareList() {
  const { t, i18n } = useTranslation();
  const { shares, error, loadMore } = useShareList();
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const actions = useShareActions();
  const expiry = useExpiryText();
  const chosen = shares?.filter((s) => picked.has(s.share_id)) ?? [];
  const toggle = (id: string) =>
    setPicked((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <section className="page">
      <div className="toolbar">
        <h1 className="crumb current">{t('nav.shared')}</h1>
        <div className="toolbar-end">
          <button className="btn danger" disabled={chosen.length === 0} onClick={() => actions.cancel(chosen, () => setPicked(new Set()))}>
            {chosen.length ? t('share.cancelCount', { count: chosen.length }) : t('share.cancel')}
          </button>
        </div>
      </div>
      {error && !shares?.length ? (
        <EmptyState icon="shared" title={t('files.loadFailed')} hint={errorMessage(error)} />
      ) : !shares ? (
        <Skeleton />
      ) : shares.length === 0 ? (
        <EmptyState icon="shared" title={t('shared.empty')} hint={t('shared.emptyHint')} />
      ) : (
        <div className="share-table" role="table" aria-label={t('nav.shared')}>
          <div className="share-row head" role="row">
            <span role="columnheader">
              <input
                type="checkbox"
                aria-label={t('selection.all')}
                checked={chosen.length === shares.length}
                onChange={() => setPicked(chosen.length === shares.length ? new Set() : new Set(shares.map((s) => s.share_id)))}
              />
            </span>
            <span role="columnheader">{t('files.name')}</span>
            <span role="columnheader">{t('share.created')}</span>
            <span role="columnheader">{t('share.validity')}</span>
            <span role="columnheader">{t('share.views')}</span>
            <span role="columnheader">{t('share.saves')}</span>
            <span role="columnheader" />
          </div>
          {shares.map((s) => {
            const held = heldText(t, s.share_status);
            return (
              <div
                key={s.share_id}
                className={`share-row${s.share_status === 'OK' || held ? '' : ' gone'}`}
                role="row"
                aria-label={s.title}
              >
                <span role="cell">
                  <input type="checkbox" aria-label={s.title} checked={picked.has(s.share_id)} onChange={() => toggle(s.share_id)} />
                </span>
                <span role="cell" className="share-title">
                  <Icon name={s.file_kind === 'drive#folder' ? 'folder' : 'file'} />
                  <Link to={`/shared/${s.share_id}`}>{s.title}</Link>
                  {s.pass_code && <small className="muted"> · {t('share.withCodeShort')}</small>}
                </span>
                <span role="cell" className="muted">
                  {formatTime(s.create_time, i18n.language)}
                </span>
                <span role="cell" data-testid="expiry">
                  {s.share_status === 'OK' || s.share_status === 'EXPIRED' ? (
                    expiry(s)
                  ) : held ? (
                    <HeldNote held={held} entry={s} />
                  ) : (
                    t('share.filesGone')
                  )}
                </span>
                <span role="cell" data-testid="views">
                  {capCount(s.view_count)}
                </span>
                <span role="cell" data-testid="saves">
                  {capCount(s.restore_count)}
                </span>
                <span role="cell" className="share-actions">
                  <button
                    className="icon-btn"
                    aria-label={t('share.copyLinkOf', { name: s.title })}
                    title={t('share.copyLinkOf', { name: s.title })}
                    onClick={() => void actions.copy(s)}
                  >
                    <Icon name="link" />
                  </button>
                  <button
                    className="icon-btn"
                    aria-label={t('share.manageOf', { name: s.title })}
                    title={t('share.manageOf', { name: s.title })}
                    onClick={() => actions.manage(s)}
                  >
                    <Icon name="edit" />
                  </button>
                </span>
              </div>
            );
          })}
          <EndSentinel onVisible={loadMore} />
        </div>
      )}
    </section>
  );
}

function ShareDetail({ shareId }: { shareId: string }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const actions = useShareActions();
  const expiry = useExpiryText();
  const entry = useQuery({ queryKey: ['share', shareId, 'entry'], queryFn: ({ signal }) => getShareEntry(shareId, signal) });
  const view = useQuery({ queryKey: ['share', shareId, 'files'], queryFn: ({ signal }) => viewShare({ shareId }, {}, signal) });
  const e = entry.data;
  const held = e ? heldText(t, e.share_status) : null;
  if (entry.isLoading) return <Skeleton />;
  if (!e) {
    return (
      <EmptyState icon="shared" title={t('share.notFound')} hint={entry.error ? errorMessage(entry.error) : undefined}>
        <Link className="btn" to="/shared">
          {t('nav.shared')}
        </Link>
      </EmptyState>
    );
  }
  return (
    <section className="page">
      <div className="toolbar">
        <nav className="crumbs" aria-label={t('files.breadcrumbs')}>
          <Link className="crumb" to="/shared">
            {t('nav.shared')}
          </Link>
          <Icon name="chevron" size={14} />
          <span className="crumb current">{e.title}</span>
        </nav>
        <div className="toolbar-end">
          <button className="btn" onClick={() => void actions.copy(e)}>
            <Icon name="link" size={18} /> {e.pass_code ? t('share.copyLinkAndCode') : t('share.copyLink')}
          </button>
          <button className="btn" onClick={() => actions.manage(e)}>
            {t('share.manage')}
          </button>
          <button className="btn danger" onClick={() => actions.cancel([e], () => void navigate('/shared'))}>
            {t('share.cancel')}
          </button>
        </div>
      </div>
      {held && (
        <p className="page-hint" role="status">
          <HeldNote held={held} entry={e} />
        </p>
      )}
      <p className="muted page-hint">
        {[
          e.share_url,
          e.pass_code ? `${t('share.passCode')}: ${e.pass_code}` : t('share.public'),
          expiry(e),
          `${t('share.views')}: ${capCount(e.view_count)}`,
          `${t('share.saves')}: ${capCount(e.restore_count)}`,
          formatTime(e.create_time, i18n.language),
        ].join(' · ')}
      </p>
      {view.error ? (
        <EmptyState icon="shared" title={t('files.loadFailed')} hint={errorMessage(view.error)} />
      ) : !view.data ? (
        <Skeleton />
      ) : view.data.files.length === 0 ? (
        <EmptyState icon="shared" title={t('share.filesGone')} hint={view.data.share_status_text} />
      ) : (
        <FileView files={view.data.files} viewType="list" view="shared" label={e.title} />
      )}
    </section>
  );
}
