/** The avatar dialog: the built-in pictures as a group of radio buttons, or none; Save sends the choice. */
import { useState } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DialogX } from '../../components/dialog-x';
import { Icon } from '../../components/icon';
import { listAvatars } from './profile-api';

interface Props {
  /** The path of the avatar the account has ('' for none). */
  current: string;
  busy: boolean;
  onPick: (id: string) => void;
  onClose: () => void;
}

export function AvatarPicker({ current, busy, onPick, onClose }: Props) {
  const { t } = useTranslation();
  const { data: avatars = [] } = useQuery({ queryKey: ['avatars'], queryFn: listAvatars, staleTime: Infinity });
  const [chosen, setChosen] = useState<string | null>(null);
  const selected = chosen ?? avatars.find((a) => a.url === current)?.id ?? '';
  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined}>
          <Dialog.Title className="dialog-title">{t('profile.chooseAvatar')}</Dialog.Title>
          <div className="avatar-grid" role="radiogroup" aria-label={t('profile.avatars')}>
            {avatars.map((a, i) => (
              <button key={a.id} type="button" role="radio" aria-checked={selected === a.id} aria-label={t('profile.avatarN', { n: i + 1 })} className="avatar-choice" onClick={() => setChosen(a.id)}>
                <img src={a.url} alt="" width={56} height={56} />
              </button>
            ))}
            <button type="button" role="radio" aria-checked={selected === ''} className="avatar-choice none" onClick={() => setChosen('')}>
              {t('profile.noAvatar')}
            </button>
          </div>
          <div className="dialog-actions">
            <Dialog.Close className="btn" type="button">
              {t('common.cancel')}
            </Dialog.Close>
            <button className="btn primary" type="button" disabled={busy} onClick={() => onPick(selected)}>
              {t('common.save')}
            </button>
          </div>
          <DialogX>
            <Icon name="close" />
          </DialogX>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
