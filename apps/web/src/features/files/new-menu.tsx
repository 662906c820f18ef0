/**
 * "+ New": everything that adds content to the folder on screen, fetching first (a drive that fetches for you):
 * cloud download, upload files, upload a folder, new folder. On a phone the same button floats over the list.
 */
import * as Menu from '@radix-ui/react-dropdown-menu';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icon';
import { useIsMobile } from '../layout/use-media';

export interface AddActions {
  cloudDownload: () => void;
  pickFiles: () => void;
  pickFolder: () => void;
  newFolder: () => void;
}

export function NewMenu({ actions }: { actions: AddActions }) {
  const { t } = useTranslation();
  // On a phone the button floats as a bare +: its name goes in a tooltip, as on the other icon buttons.
  const iconOnly = useIsMobile();
  const items: [string, keyof AddActions, Parameters<typeof Icon>[0]['name']][] = [
    [t('cloud.title'), 'cloudDownload', 'link'],
    [t('uploads.files'), 'pickFiles', 'upload'],
    [t('uploads.folder'), 'pickFolder', 'folder'],
    [t('files.newFolder'), 'newFolder', 'plus'],
  ];
  return (
    // Not modal: a modal menu hides the app with aria-hidden while its buttons stay focusable.
    <Menu.Root modal={false}>
      <Menu.Trigger className="btn primary new-btn" aria-label={t('files.new')} title={iconOnly ? t('files.new') : undefined}>
        <Icon name="plus" size={18} />
        <span className="hide-mobile">{t('files.new')}</span>
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content className="menu" align="end" sideOffset={6}>
          {items.map(([label, key, icon]) => (
            <Menu.Item key={key} className="menu-item" onSelect={actions[key]}>
              <Icon name={icon} size={16} />
              {label}
            </Menu.Item>
          ))}
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}

/** Lines of pasted text that are links a cloud download takes (http, https, magnet); none when it is other text. */
export function pastedLinks(text: string): string[] {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.length > 0 && lines.every((l) => /^(https?:\/\/\S+|magnet:\?\S+)$/i.test(l)) ? lines : [];
}
