/**
 * The one place the open dialog of the dialog store is rendered; each feature owns its dialog's component and this
 * picks it by type. Loaded when a dialog first opens (router.tsx).
 */
import { useTranslation } from 'react-i18next';
import { createFolder, renameFile } from '../../features/files/file-mutations';
import { DetailsDialog } from '../../features/files/details-dialog';
import { FolderPicker } from '../../features/files/folder-picker';
import { NameDialog } from '../../features/files/name-dialog';
import { CloudDownloadDialog, RemoveCloudTasksDialog } from '../../features/offline/cloud-dialogs';
import { TorrentPlayerDialog } from '../../features/offline/torrent-player';
import { ShareDialog } from '../../features/shares/share-dialog';
import { ExternalPlayerDialog } from '../../features/viewer/external-player-dialog';
import { ConfirmDialog } from './confirm-dialog';
import { Frame } from './dialog-frame';
import { useDialog } from './dialog-store';

/** Renders the open dialog, or nothing. */
export function DialogHost() {
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
    case 'torrent-player':
      return <TorrentPlayerDialog task={d.task} />;
    case 'share':
    case 'share-manage':
      return <ShareDialog d={d} />;
    case 'external-player':
      return <ExternalPlayerDialog d={d} />;
  }
}
