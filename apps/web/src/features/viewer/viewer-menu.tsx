/**
 * The viewer's "more" menu: the file actions of the lists (details, move, copy, rename, delete), back to the file's
 * folder, and opening a video or song in a player on the computer (seed 001 §2).
 */
import * as Menu from '@radix-ui/react-dropdown-menu';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { mediaTypeOf } from '@haul/shared/plain';
import type { DriveFile } from '@haul/shared';
import { IconMenu } from '../../components/icon-menu';
import { FILE_ACTIONS, type ActionContext } from '../files/actions';
import { useDialog } from '../../app/dialogs/dialog-store';
import { Icon } from '../../components/icon';
import { useViewer } from './viewer-store';
import { copyVideoLink } from './copy-video-link';

/** Shown in the header already, or not for one file seen in the viewer. */
const ELSEWHERE = new Set(['open', 'share', 'star', 'unstar', 'download', 'restore', 'delete-forever']);

export function ViewerMenu({ file, canRename }: { file: DriveFile; canRename: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ctx: ActionContext = { files: [file], view: 'all', navigate: (to, opts) => void navigate(to, opts) };
  const actions = FILE_ACTIONS.filter((a) => !ELSEWHERE.has(a.id) && (canRename || a.id !== 'rename') && a.visible(ctx));
  const playable = mediaTypeOf(file.name, file.mime_type) !== 'image';
  return (
    <IconMenu label={t('viewer.more')} button={<Icon name="more" />} buttonClassName="viewer-more" menuClassName="viewer-menu">
      {actions.map((a) => (
        <Menu.Item
          key={a.id}
          className={`menu-item${a.danger ? ' danger' : ''}`}
          onSelect={async () => {
            const done = await a.perform(ctx);
            // A file sent to the trash leaves the viewer's list.
            if (a.id === 'trash' && done !== false) useViewer.getState().remove(file.id);
          }}
        >
          {t(a.labelKey)}
        </Menu.Item>
      ))}
      {playable && (
        <Menu.Item className="menu-item" onSelect={() => useDialog.getState().open({ type: 'external-player', file })}>
          {t('viewer.externalPlayer')}
        </Menu.Item>
      )}
      {mediaTypeOf(file.name, file.mime_type) === 'video' && (
        <Menu.Item className="menu-item" onSelect={() => void copyVideoLink(file)}>
          {t('cast.copyLink')}
        </Menu.Item>
      )}
      <Menu.Item
        className="menu-item"
        // Leaving the page's address closes the viewer (use-viewer-address); closing first would also go back.
        onSelect={() => navigate(file.parent_id ? `/all/${file.parent_id}` : '/all')}
      >
        {t('viewer.backToFolder')}
      </Menu.Item>
    </IconMenu>
  );
}
