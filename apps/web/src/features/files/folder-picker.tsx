/**
 * Chooses a folder by browsing: the destination of a move or copy (the moved folders themselves cannot be entered), of
 * a save from a share, or of a cloud download; a new folder made here is chosen at once.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FOLDER_KIND, LIMITS } from '@haul/shared/plain';
import type { Breadcrumb, DriveFile } from '@haul/shared';
import { errorMessage } from '../../lib/error-message';
import { Icon } from '../../components/icon';
import { useDialog } from '../../app/dialogs/dialog-store';
import { copyFiles, moveFiles } from './file-mutations';
import { LIVE_FILTERS, listFiles } from './files-api';
import { PickerNewFolder } from './picker-new-folder';

/** Browses the folders from the root: the path as crumbs, the folders of the one open, and "New folder" to make one there. */
export function FolderBrowser({
  path,
  onPath,
  disabled,
}: {
  path: Breadcrumb[];
  onPath: (p: Breadcrumb[]) => void;
  disabled?: ReadonlySet<string>;
}) {
  const { t } = useTranslation();
  const here = path.at(-1)?.id ?? '';
  const { data, isLoading, error } = useQuery({
    queryKey: ['picker', here],
    queryFn: ({ signal }) =>
      listFiles(
        { parentId: here, filters: { ...LIVE_FILTERS, kind: { eq: FOLDER_KIND } }, order: 'NAME_ASC', limit: LIMITS.listMax },
        signal,
      ),
  });
  return (
    <>
      <nav className="crumbs" aria-label={t('picker.location')}>
        <button type="button" className="crumb" onClick={() => onPath([])}>
          {t('nav.all')}
        </button>
        {path.map((b, i) => (
          <span key={b.id}>
            <Icon name="chevron" size={14} />
            <button type="button" className="crumb" onClick={() => onPath(path.slice(0, i + 1))}>
              {b.name}
            </button>
          </span>
        ))}
      </nav>
      <ul className="picker-list" role="listbox" aria-label={t('picker.folders')}>
        {isLoading && <li className="muted">{t('common.loading')}</li>}
        {error && <li className="form-error">{errorMessage(error)}</li>}
        {data?.files.length === 0 && <li className="muted">{t('picker.noFolders')}</li>}
        {data?.files.map((f) => (
          <li key={f.id}>
            <button
              type="button"
              role="option"
              aria-selected={false}
              className="picker-item"
              disabled={disabled?.has(f.id)}
              onClick={() => onPath([...path, { id: f.id, name: f.name, parent_id: f.parent_id }])}
            >
              <Icon name="folder" />
              <span>{f.name}</span>
            </button>
          </li>
        ))}
      </ul>
      <PickerNewFolder parentId={here} onMade={(f) => onPath([...path, { id: f.id, name: f.name, parent_id: f.parent_id }])} />
    </>
  );
}

export function FolderPicker({ mode, files }: { mode: 'move' | 'copy'; files: DriveFile[] }) {
  const { t } = useTranslation();
  const close = useDialog((s) => s.close);
  const [path, setPath] = useState<Breadcrumb[]>([]);
  const [busy, setBusy] = useState(false);
  const here = path.at(-1)?.id ?? '';
  // Moving into the folder the items are already in changes nothing.
  const sameFolder = mode === 'move' && files.every((f) => f.parent_id === here);

  const submit = async () => {
    setBusy(true);
    const ok = await (mode === 'move' ? moveFiles(files, here) : copyFiles(files, here));
    setBusy(false);
    if (ok) close();
  };

  return (
    <div className="picker">
      <FolderBrowser path={path} onPath={setPath} disabled={new Set(files.map((f) => f.id))} />
      <div className="dialog-actions">
        <button className="btn" onClick={close}>
          {t('common.cancel')}
        </button>
        <button className="btn primary" disabled={busy || sameFolder} onClick={submit}>
          {mode === 'move' ? t('picker.moveHere') : t('picker.copyHere')}
        </button>
      </div>
    </div>
  );
}
