/**
 * Subscribing to a feed, and changing one: its link (only when adding), the folder new items land in, include and
 * exclude patterns (one a line), how often it is read, and (when adding) whether what it lists now is fetched too.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { Breadcrumb } from '@haul/shared';
import { Frame } from '../../app/dialogs/dialog-frame';
import { FormError } from '../../components/form-error';
import { TextField } from '../../components/text-field';
import { useSubmit } from '../../components/use-submit';
import { errorMessage } from '../../lib/error-message';
import { FolderBrowser } from '../files/folder-picker';
import { createFeed, INTERVALS, parsePatterns, updateFeed, type Feed } from './feeds-api';

export function intervalLabel(t: (k: string, o?: Record<string, unknown>) => string, minutes: number): string {
  return minutes % 60 === 0 ? t('feeds.everyHours', { n: minutes / 60 }) : t('feeds.everyMinutes', { n: minutes });
}

/** `feed` given: its settings are changed; else a new subscription. */
export function FeedForm({ feed, onClose, onDone }: { feed?: Feed; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [url, setUrl] = useState('');
  // A feed being changed starts in the drive's top folder view; its folder is kept unless another is picked.
  const [path, setPath] = useState<Breadcrumb[]>([]);
  const [moved, setMoved] = useState(false);
  const [include, setInclude] = useState(feed?.include.join('\n') ?? '');
  const [exclude, setExclude] = useState(feed?.exclude.join('\n') ?? '');
  const [interval, setIntervalMinutes] = useState(feed?.interval_minutes ?? 60);
  const [fetchExisting, setFetchExisting] = useState(true);
  const { busy, error, setError, submit } = useSubmit();
  const target = path.at(-1);
  const save = (e: FormEvent) => {
    e.preventDefault();
    const settings = {
      include: parsePatterns(include),
      exclude: parsePatterns(exclude),
      interval_minutes: interval,
      ...(!feed || moved ? { parent_id: target?.id ?? '' } : {}),
    };
    if (!feed && !url.trim()) return setError(t('feeds.urlNeeded'));
    return submit(async () => {
      if (feed) {
        await updateFeed(feed.id, settings);
        toast.success(t('feeds.saved'));
      } else {
        const r = await createFeed({ url: url.trim(), existing: fetchExisting ? 'fetch' : 'skip', ...settings });
        toast.success(t('feeds.subscribed', { title: r.feed.title, n: r.items_listed }));
      }
      onDone();
    }, errorMessage);
  };
  return (
    <Frame wide title={feed ? t('feeds.editTitle', { title: feed.title }) : t('feeds.addTitle')} onClose={onClose}>
      <form className="feed-form" onSubmit={save} noValidate>
        {!feed && (
          <TextField label={t('feeds.url')} type="url" inputMode="url" autoFocus value={url} maxLength={2000} placeholder="https://example.com/rss" onChange={(e) => setUrl(e.target.value)} />
        )}
        <div className="field">
          <span className="feed-label">{feed && !moved ? t('feeds.folderKept') : t('feeds.folder', { folder: target?.name ?? t('nav.all') })}</span>
          <FolderBrowser
            path={path}
            onPath={(p) => {
              setPath(p);
              setMoved(true);
            }}
          />
        </div>
        <div className="feed-patterns">
          <div className="field">
            <label htmlFor={`${id}-include`}>{t('feeds.include')}</label>
            <textarea id={`${id}-include`} rows={3} value={include} onChange={(e) => setInclude(e.target.value)} aria-describedby={`${id}-hint`} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-exclude`}>{t('feeds.exclude')}</label>
            <textarea id={`${id}-exclude`} rows={3} value={exclude} onChange={(e) => setExclude(e.target.value)} aria-describedby={`${id}-hint`} />
          </div>
        </div>
        <small id={`${id}-hint`} className="muted">
          {t('feeds.patternsHint')}
        </small>
        <div className="field">
          <label htmlFor={`${id}-interval`}>{t('feeds.interval')}</label>
          <select id={`${id}-interval`} value={interval} onChange={(e) => setIntervalMinutes(Number(e.target.value))}>
            {[...new Set([...INTERVALS, interval])].sort((a, b) => a - b).map((m) => (
              <option key={m} value={m}>
                {intervalLabel(t, m)}
              </option>
            ))}
          </select>
        </div>
        {!feed && (
          <label className="check-field">
            <input type="checkbox" checked={fetchExisting} onChange={(e) => setFetchExisting(e.target.checked)} />
            {t('feeds.fetchExisting')}
          </label>
        )}
        <FormError error={error} />
        <div className="dialog-actions">
          <Dialog.Close className="btn" type="button">
            {t('common.cancel')}
          </Dialog.Close>
          <button className="btn primary" type="submit" disabled={busy}>
            {feed ? t('feeds.save') : t('feeds.subscribe')}
          </button>
        </div>
      </form>
    </Frame>
  );
}
