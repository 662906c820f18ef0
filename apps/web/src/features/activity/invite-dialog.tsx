/**
 * The invitation dialog (seed actions `show_invite_dialog` and `show_activity_dialog`, and `/activity/invitation-dialog`):
 * the invite link to copy, over whatever page is open; the actions are read in deep-links/. Also opened from the account
 * menu ("Invite friends").
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { create } from 'zustand';
import { InviteLinkPanel } from './invite-link-panel';
import './activity.css';

const useInviteDialogStore = create<{ shown: boolean; set: (shown: boolean) => void }>()((set) => ({ shown: false, set: (shown) => set({ shown }) }));

export function useInviteDialog() {
  const set = useInviteDialogStore((s) => s.set);
  return { open: () => set(true) };
}

export function InviteDialogHost() {
  const { t } = useTranslation();
  const shown = useInviteDialogStore((s) => s.shown);
  const set = useInviteDialogStore((s) => s.set);
  if (!shown) return null;
  const close = () => set(false);
  return (
    <Dialog.Root open onOpenChange={(o) => !o && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog invite-dialog" aria-describedby={undefined}>
          <Dialog.Title className="dialog-title">{t('activity.inviteTitle')}</Dialog.Title>
          <InviteLinkPanel />
          <div className="dialog-actions">
            <Link className="btn" to="/activity/invited" onClick={close}>
              {t('activity.seeInvited')}
            </Link>
            <button className="btn" type="button" onClick={close}>
              {t('common.close')}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
