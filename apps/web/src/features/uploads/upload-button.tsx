/** "Upload": files or a whole folder into the folder on screen. */
import * as Menu from '@radix-ui/react-dropdown-menu';
import { useRef, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionStore } from '../auth/session-store';
import { Icon } from '../layout/icon';

export function UploadButton({ parentId }: { parentId: string }) {
  const { t } = useTranslation();
  const userId = useSessionStore((s) => s.session!.userId);
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const onPick = async (e: ChangeEvent<HTMLInputElement>) => {
    const chosen = [...(e.target.files ?? [])];
    e.target.value = '';
    if (!chosen.length) return;
    // The upload machinery (tus, hashing) loads on first use, not with the first page.
    const { folderOf, uploadPicked } = await import('./upload-folders');
    await uploadPicked(
      userId,
      chosen.map((file) => ({ file, relativePath: folderOf(file.webkitRelativePath) })),
      parentId,
    );
  };
  return (
    <>
      <Menu.Root>
        <Menu.Trigger className="btn" aria-label={t('uploads.upload')}>
          <Icon name="upload" size={18} />
          <span className="hide-mobile">{t('uploads.upload')}</span>
        </Menu.Trigger>
        <Menu.Portal>
          <Menu.Content className="menu" align="end" sideOffset={6}>
            <Menu.Item className="menu-item" onSelect={() => filesInput.current?.click()}>
              {t('uploads.files')}
            </Menu.Item>
            <Menu.Item className="menu-item" onSelect={() => folderInput.current?.click()}>
              {t('uploads.folder')}
            </Menu.Item>
          </Menu.Content>
        </Menu.Portal>
      </Menu.Root>
      <input ref={filesInput} type="file" multiple hidden onChange={(e) => void onPick(e)} data-testid="upload-files" />
      <input
        ref={(el) => {
          folderInput.current = el;
          el?.setAttribute('webkitdirectory', '');
        }}
        type="file"
        hidden
        onChange={(e) => void onPick(e)}
        data-testid="upload-folder"
      />
    </>
  );
}
