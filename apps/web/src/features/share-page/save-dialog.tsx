/** "Save to my drive": pick a folder of one's own drive; the items are added there at once, without copying bytes. */
import * as Dialog from '@radix-ui/react-dialog';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { Breadcrumb } from '@haul/shared';
import { errorMessage } from '../../lib/error-message';
import { FolderBrowser } from '../files/folder-picker';
import { escapeLeavesField } from '../files/picker-new-folder';
import { restoreShare, type ShareAccess } from '../shares/shares-api';
import { DialogX } from '../../components/dialog-x';
import { FormError } from '../../components/form-error';
import { useSubmit } from '../../components/use-submit';

export function SaveDialog({ access, fileIds, onClose }: { access: ShareAccess; fileIds: string[]; onClose: () => void }) {
  const { t } = useTranslation();
  const [path, setPath] = useState<Breadcrumb[]>([]);
  const { busy, error, submit } = useSubmit();
  const target = path.at(-1);
  const save = () =>
    submit(async () => {
      const { file_ids } = await restoreShare(access, fileIds, target?.id ?? '');
      const where = `/drive/all${target ? `/${target.id}` : ''}`;
      toast.success(t('publicShare.saved', { count: file_ids.length, folder: target?.name ?? t('nav.all') }), {
        action: { label: t('publicShare.openDrive'), onClick: () => window.location.assign(where) },
      });
      onClose();
    }, errorMessage);
  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog wide" aria-describedby={undefined} onEscapeKeyDown={escapeLeavesField}>
          <Dialog.Title className="dialog-title">
            {fileIds.length ? t('publicShare.saveTitle', { count: fileIds.length }) : t('publicShare.saveAll')}
          </Dialog.Title>
          <FolderBrowser path={path} onPath={setPath} />
          <FormError error={error} />
          <div className="dialog-actions">
            <Dialog.Close className="btn" type="button">
              {t('common.cancel')}
            </Dialog.Close>
            <button className="btn primary" disabled={busy} onClick={() => void save()}>
              {t('publicShare.saveHere', { folder: target?.name ?? t('nav.all') })}
            </button>
          </div>
          <DialogX />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
