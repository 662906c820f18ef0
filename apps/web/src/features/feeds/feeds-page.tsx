/**
 * Feeds (/feeds): RSS and Atom feeds the account follows. Each shows how its checks go (last and next check, the last
 * error in words, paused); its history opens below it. New items become cloud downloads on the server's own schedule,
 * so this page only reads, and reads again while open.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDialog } from '../../app/dialogs/dialog-store';
import { Icon } from '../../components/icon';
import { errorMessage } from '../../lib/error-message';
import { EmptyState, Skeleton } from '../files/file-manager-page';
import { runChange } from '../files/file-mutations';
import { formatTime } from '../files/format-time';
import { refreshQueries } from '../files/settle-changes';
import { FeedForm, intervalLabel } from './feed-form';
import { FeedHistory } from './feed-history';
import { deleteFeed, FEEDS_KEY, listFeeds, updateFeed, type Feed } from './feeds-api';
import './feeds.css';

const REFRESH_MS = 10_000;

type Open = { type: 'add' } | { type: 'edit'; feed: Feed } | null;

export function FeedsPage() {
  const { t, i18n } = useTranslation();
  const openDialog = useDialog((s) => s.open);
  const [open, setOpen] = useState<Open>(null);
  const [shown, setShown] = useState<string>('');
  const q = useQuery({ queryKey: [FEEDS_KEY], queryFn: ({ signal }) => listFeeds(signal), refetchInterval: REFRESH_MS });
  const feeds = q.data?.feeds;
  const refresh = () => refreshQueries([FEEDS_KEY]);
  const time = (iso: string) => formatTime(iso, i18n.language);
  const status = (f: Feed) =>
    [
      f.paused ? t('feeds.paused') : f.next_check_at ? t('feeds.next', { time: time(f.next_check_at) }) : '',
      f.last_checked_at ? t('feeds.checked', { time: time(f.last_checked_at) }) : t('feeds.notChecked'),
      intervalLabel(t, f.interval_minutes),
      t('feeds.items', { n: f.item_count }),
    ].filter(Boolean);
  const pause = (f: Feed) =>
    runChange(() => updateFeed(f.id, { paused: !f.paused }), f.paused ? t('feeds.resumed', { title: f.title }) : t('feeds.pausedToast', { title: f.title })).then(refresh);
  const remove = (f: Feed) =>
    openDialog({
      type: 'confirm',
      title: t('feeds.deleteTitle', { title: f.title }),
      body: t('feeds.deleteBody'),
      confirmLabel: t('feeds.delete'),
      danger: true,
      onConfirm: () => runChange(() => deleteFeed(f.id), t('feeds.deleted', { title: f.title })).then(refresh),
    });

  return (
    <section className="page feeds-page">
      <div className="toolbar">
        <h1 className="crumb current">{t('feeds.title')}</h1>
        <div className="toolbar-end">
          <button className="btn primary" onClick={() => setOpen({ type: 'add' })}>
            <Icon name="plus" size={18} />
            {t('feeds.add')}
          </button>
        </div>
      </div>
      {q.error && !feeds ? (
        <EmptyState icon="alert" title={t('files.loadFailed')} hint={errorMessage(q.error)} />
      ) : !feeds ? (
        <Skeleton rows={3} />
      ) : feeds.length === 0 ? (
        <EmptyState icon="list" title={t('feeds.empty')} hint={t('feeds.emptyHint')} />
      ) : (
        <ul className="feed-list" aria-label={t('feeds.title')}>
          {feeds.map((f) => (
            <li key={f.id} aria-label={f.title} className={f.paused ? 'paused' : undefined}>
              <div className="feed-row">
                <Icon name="list" size={24} />
                <span className="feed-main">
                  <strong className="feed-title" title={f.title}>
                    {f.title}
                  </strong>
                  <small className="muted feed-url" title={f.url}>
                    {f.url}
                  </small>
                  <small className="muted">{status(f).join(' · ')}</small>
                  {f.last_error && (
                    <small className="feed-error" role="status">
                      {t('feeds.error', { error: f.last_error })}
                    </small>
                  )}
                </span>
                <span className="feed-actions">
                  <button className="btn small" aria-expanded={shown === f.id} onClick={() => setShown(shown === f.id ? '' : f.id)}>
                    {t('feeds.history')}
                  </button>
                  <button className="icon-btn" aria-label={f.paused ? t('feeds.resumeOf', { title: f.title }) : t('feeds.pauseOf', { title: f.title })} title={f.paused ? t('feeds.resume') : t('feeds.pause')} onClick={() => void pause(f)}>
                    <Icon name={f.paused ? 'play' : 'pause'} />
                  </button>
                  <button className="icon-btn" aria-label={t('feeds.editOf', { title: f.title })} title={t('feeds.edit')} onClick={() => setOpen({ type: 'edit', feed: f })}>
                    <Icon name="edit" />
                  </button>
                  <button className="icon-btn" aria-label={t('feeds.deleteOf', { title: f.title })} title={t('feeds.delete')} onClick={() => remove(f)}>
                    <Icon name="trash" />
                  </button>
                </span>
              </div>
              {shown === f.id && <FeedHistory feed={f} />}
            </li>
          ))}
        </ul>
      )}
      {open && (
        <FeedForm
          feed={open.type === 'edit' ? open.feed : undefined}
          onClose={() => setOpen(null)}
          onDone={() => {
            const added = open.type === 'add';
            setOpen(null);
            void refresh();
            if (added) window.setTimeout(() => void refresh(), 1500);
          }}
        />
      )}
    </section>
  );
}
