/** Fetching bookmarks into a chosen folder, and renaming one: dialogs of the bookmarks page. */
import * as Dialog from '@radix-ui/react-dialog';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { Breadcrumb } from '@haul/shared';
import { Frame } from '../../app/dialogs/dialog-frame';
import { FormError } from '../../components/form-error';
import { TextField } from '../../components/text-field';
import { useSubmit } from '../../components/use-submit';
import { errorMessage } from '../../lib/error-message';
import { FolderBrowser } from '../files/folder-picker';
import { reportLimit } from '../limits/limit-store';
import { followCloudTasks } from '../offline/cloud-task-poll';
import { useUploads } from '../uploads/upload-store';
import { fetchBookmarks, renameBookmark, type Bookmark } from './bookmarks-api';

/** Pick a folder; one cloud download per bookmark lands there (the daily limit opens its dialog, as the cloud dialog's does). */
export function FetchDialog({ items, onClose, onDone }: { items: Bookmark[]; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [path, setPath] = useState<Breadcrumb[]>([]);
  const { busy, error, submit } = useSubmit();
  const target = path.at(-1);
  const folder = target?.name ?? t('nav.all');
  const go = () =>
    submit(async () => {
      try {
        await fetchBookmarks(
          items.map((b) => b.id),
          target?.id ?? '',
        );
      } catch (err) {
        if (reportLimit(err)) return onClose();
        throw err;
      }
      toast.success(t('bookmarksPage.fetched', { count: items.length, folder }), {
        action: { label: t('deepLinks.showTransfers'), onClick: () => useUploads.setState({ panelOpen: true, tab: 'cloud' }) },
      });
      followCloudTasks();
      onDone();
    }, errorMessage);
  return (
    <Frame wide title={t('bookmarksPage.fetchTitle', { count: items.length })} onClose={onClose}>
      <FolderBrowser path={path} onPath={setPath} />
      <FormError error={error} />
      <div className="dialog-actions">
        <Dialog.Close className="btn" type="button">
          {t('common.cancel')}
        </Dialog.Close>
        <button className="btn primary" disabled={busy} onClick={() => void go()}>
          {t('bookmarksPage.fetchHere', { folder })}
        </button>
      </div>
    </Frame>
  );
}

export function RenameDialog({ item, onClose, onDone }: { item: Bookmark; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(item.name);
  const { busy, error, setError, submit } = useSubmit();
  const save = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setError(t('names.empty'));
    return submit(async () => {
      await renameBookmark(item.id, name.trim());
      onDone();
    }, errorMessage);
  };
  return (
    <Frame wide title={t('bookmarksPage.renameTitle')} onClose={onClose}>
      <form onSubmit={save}>
        <TextField
          label={t('bookmarksPage.name')}
          value={name}
          maxLength={255}
          autoFocus
          onChange={(e) => setName(e.target.value)}
          error={error}
        />
        <div className="dialog-actions">
          <Dialog.Close className="btn" type="button">
            {t('common.cancel')}
          </Dialog.Close>
          <button className="btn primary" type="submit" disabled={busy}>
            {t('bookmarksPage.save')}
          </button>
        </div>
      </form>
    </Frame>
  );
}
