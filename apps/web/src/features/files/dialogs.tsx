/** The file manager's dialogs, opened through the dialog store and rendered in one place. */
import * as Dialog from '@radix-ui/react-dialog';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { formatSize } from '@haul/shared/plain';
import { CloudDownloadDialog, RemoveCloudTasksDialog } from '../offline/cloud-dialogs';
import { Icon } from '../layout/icon';
import { copyText } from '../shares/share-format';
import { ShareDialog } from '../shares/share-dialog';
import { ExternalPlayerDialog } from '../viewer/external-player-dialog';
import { Frame } from './dialog-frame';
import { useDialog, type DialogState } from './dialog-store';
import { createFolder, nameProblem, renameFile } from './file-mutations';
import { FolderPicker } from './folder-picker';
import { isFolder } from './files-api';
import { formatTime } from './format-time';
import { LocationPath } from './item-location';
import { FormError } from '../../components/form-error';
import { PlatformIcon, platformName } from '../search/platform-icon';

function NameDialog({
  title,
  initial,
  submitLabel,
  onSubmit,
}: {
  title: string;
  initial: string;
  submitLabel: string;
  /** Truthy when it worked; falsy (after its own toast) when it did not. */
  onSubmit: (name: string) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const close = useDialog((s) => s.close);
  const [name, setName] = useState(initial);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = nameProblem(name);
    if (problem) return setError(problem);
    setBusy(true);
    const ok = await onSubmit(name);
    setBusy(false);
    // A failure (offline, a server error) keeps the dialog and what was typed, so the person can try again.
    if (ok) close();
  };
  // Select the name without its extension, as file managers do, so typing replaces just the name.
  const selectStem = (el: HTMLInputElement | null) => {
    if (!el || el.dataset.selected) return;
    el.dataset.selected = '1';
    const dot = initial.lastIndexOf('.');
    requestAnimationFrame(() => el.setSelectionRange(0, dot > 0 ? dot : initial.length));
  };
  return (
    <Frame title={title}>
      <form onSubmit={submit}>
        <label className="field">
          <span>{t('files.name')}</span>
          <input
            ref={selectStem}
            autoFocus
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setError('');
            }}
            aria-invalid={!!error}
          />
        </label>
        <FormError error={error} />
        <div className="dialog-actions">
          <Dialog.Close className="btn" type="button">
            {t('common.cancel')}
          </Dialog.Close>
          <button className="btn primary" type="submit" disabled={busy || !name.trim()}>
            {submitLabel}
          </button>
        </div>
      </form>
    </Frame>
  );
}

function ConfirmDialog({ d }: { d: Extract<DialogState, { type: 'confirm' }> }) {
  const { t } = useTranslation();
  const close = useDialog((s) => s.close);
  const [busy, setBusy] = useState(false);
  return (
    <Frame title={d.title}>
      <p>{d.body}</p>
      <div className="dialog-actions">
        <Dialog.Close className="btn" type="button">
          {t('common.cancel')}
        </Dialog.Close>
        <button
          className={`btn ${d.danger ? 'danger' : 'primary'}`}
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            await d.onConfirm();
            close();
          }}
        >
          {d.confirmLabel}
        </button>
      </div>
    </Frame>
  );
}

function DetailsDialog({ d }: { d: Extract<DialogState, { type: 'details' }> }) {
  const { t, i18n } = useTranslation();
  const close = useDialog((s) => s.close);
  const f = d.file;
  // A cloud download keeps the link it came from; shown as text to copy, never as a link to follow from here.
  const source = f.params?.url ?? '';
  const copySource = async () => {
    if (await copyText(source)) toast.success(t('files.sourceCopied'));
    else toast.error(t('share.copyFailed'));
  };
  const rows: [string, ReactNode][] = [
    [t('files.name'), f.name],
    [t('files.location'), <LocationPath file={f} onGo={close} />],
    [t('files.type'), isFolder(f) ? t('files.folder') : f.mime_type || f.file_extension || '-'],
    ...(isFolder(f) ? [] : ([[t('files.size'), formatSize(f.size, 1, i18n.language)]] as [string, string][])),
    [t('files.created'), formatTime(f.created_time, i18n.language)],
    [t('files.modified'), formatTime(f.modified_time, i18n.language)],
    ...(f.hash ? ([[t('files.hash'), f.hash]] as [string, string][]) : []),
  ];
  // Where it came from (params.platform, with its tag icon): an upload, a share, a site, a torrent, an archive.
  const platform = f.params?.platform;
  if (platform)
    rows.push([
      t('search.platformLabel'),
      <span className="platform-badge" data-testid="details-platform">
        <PlatformIcon platform={platform} />
        {platformName(t, platform, 'file')}
      </span>,
    ]);
  if (source)
    rows.push([
      t('files.source'),
      <span className="details-source">
        <span data-testid="details-source">{source}</span>
        <button
          className="icon-btn"
          type="button"
          aria-label={t('files.copySource')}
          title={t('files.copySource')}
          onClick={() => void copySource()}
        >
          <Icon name="copy" size={18} />
        </button>
      </span>,
    ]);
  return (
    <Frame title={t('actions.details')}>
      <dl className="details">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </Frame>
  );
}

export function FileDialogs() {
  const { t } = useTranslation();
  const d = useDialog((s) => s.dialog);
  if (!d) return null;
  switch (d.type) {
    case 'create-folder':
      return (
        <NameDialog
          key="create"
          title={t('files.newFolder')}
          initial={t('files.newFolderName')}
          submitLabel={t('common.create')}
          onSubmit={(n) => createFolder(d.parentId, n)}
        />
      );
    case 'rename':
      return (
        <NameDialog
          key={d.file.id}
          title={t('actions.rename')}
          initial={d.file.name}
          submitLabel={t('common.save')}
          onSubmit={(n) => renameFile(d.file, n)}
        />
      );
    case 'pick-folder':
      return (
        <Frame title={t(d.mode === 'move' ? 'picker.moveTitle' : 'picker.copyTitle', { count: d.files.length })} wide>
          <FolderPicker mode={d.mode} files={d.files} />
        </Frame>
      );
    case 'confirm':
      return <ConfirmDialog d={d} />;
    case 'details':
      return <DetailsDialog d={d} />;
    case 'cloud-download':
      return <CloudDownloadDialog d={d} />;
    case 'remove-cloud-tasks':
      return <RemoveCloudTasksDialog d={d} />;
    case 'share':
    case 'share-manage':
      return <ShareDialog d={d} />;
    case 'external-player':
      return <ExternalPlayerDialog d={d} />;
  }
}
