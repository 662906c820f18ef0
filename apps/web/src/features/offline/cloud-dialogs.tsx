/** Adding cloud downloads (links into a chosen folder) and removing finished ones, with or without their files. */
import * as Dialog from '@radix-ui/react-dialog';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Breadcrumb } from '@haul/shared';
import { Frame } from '../files/dialog-frame';
import { useDialog, type DialogState } from '../files/dialog-store';
import { runChange } from '../files/file-mutations';
import { FolderBrowser } from '../files/folder-picker';
import { useUploads } from '../uploads/upload-store';
import { addCloudDownloads, badLinks, removeCloudTasks } from './offline-api';

export function CloudDownloadDialog({ d }: { d: Extract<DialogState, { type: 'cloud-download' }> }) {
  const { t } = useTranslation();
  const close = useDialog((s) => s.close);
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [path, setPath] = useState<Breadcrumb[]>(d.path);
  const [choosing, setChoosing] = useState(false);
  const target = path.at(-1);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const bad = badLinks(text);
    if (bad.length) return setError(t('cloud.badLinks', { count: bad.length, first: bad[0]!.slice(0, 80) }));
    const count = text.split(/\r?\n/).filter((l) => l.trim()).length;
    setBusy(true);
    const ok = await runChange(() => addCloudDownloads(text, target?.id ?? ''), t('cloud.added', { count }));
    setBusy(false);
    if (!ok) return;
    close();
    useUploads.setState({ panelOpen: true, tab: 'cloud' });
  };

  return (
    <Frame title={t('cloud.title')} wide>
      <form onSubmit={submit}>
        <label className="field">
          <span>{t('cloud.links')}</span>
          <textarea
            autoFocus
            rows={5}
            value={text}
            placeholder={t('cloud.placeholder')}
            spellCheck={false}
            onChange={(e) => {
              setText(e.target.value);
              setError('');
            }}
            aria-invalid={!!error}
          />
        </label>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="cloud-target">
          <span className="muted">{t('cloud.saveTo')}</span>
          <strong>{target?.name ?? t('nav.all')}</strong>
          <button type="button" className="link" onClick={() => setChoosing(!choosing)} aria-expanded={choosing}>
            {choosing ? t('cloud.doneChoosing') : t('cloud.change')}
          </button>
        </div>
        {choosing && (
          <div className="picker">
            <FolderBrowser path={path} onPath={setPath} />
          </div>
        )}
        <div className="dialog-actions">
          <Dialog.Close className="btn" type="button">
            {t('common.cancel')}
          </Dialog.Close>
          <button className="btn primary" type="submit" disabled={busy || !text.trim()}>
            {t('cloud.start')}
          </button>
        </div>
      </form>
    </Frame>
  );
}

export function RemoveCloudTasksDialog({ d }: { d: Extract<DialogState, { type: 'remove-cloud-tasks' }> }) {
  const { t } = useTranslation();
  const close = useDialog((s) => s.close);
  const [withFiles, setWithFiles] = useState(false);
  const [busy, setBusy] = useState(false);
  const hasFiles = d.tasks.some((x) => x.file_id);
  return (
    <Frame title={t('cloud.removeTitle', { name: d.tasks.map((x) => x.name).join(', ') })}>
      <p>{t('cloud.removeBody')}</p>
      {hasFiles && (
        <label className="check-field">
          <input type="checkbox" checked={withFiles} onChange={(e) => setWithFiles(e.target.checked)} />
          {t('cloud.removeFiles')}
        </label>
      )}
      <div className="dialog-actions">
        <Dialog.Close className="btn" type="button">
          {t('common.cancel')}
        </Dialog.Close>
        <button
          className="btn danger"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            await runChange(() =>
              removeCloudTasks(
                d.tasks.map((x) => x.id),
                withFiles,
              ),
            );
            close();
          }}
        >
          {t('cloud.remove')}
        </button>
      </div>
    </Frame>
  );
}
