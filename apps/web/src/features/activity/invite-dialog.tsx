/**
 * The invitation dialog (seed actions `show_invite_dialog` and `show_activity_dialog`, and `/activity/invitation-dialog`):
 * the invite link to copy, over whatever page is open; the actions are read in deep-links/. Also opened from the account
 * menu ("Invite friends").
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { create } from 'zustand';
import { Frame } from '../../app/dialogs/dialog-frame';
import { InviteLinkPanel } from './invite-link-panel';
import './activity.css';

const useInviteDialogStore = create<{ shown: boolean; set: (shown: boolean) => void }>()((set) => ({
  shown: false,
  set: (shown) => set({ shown }),
}));

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
    <Frame title={t('activity.inviteTitle')} className="invite-dialog" onClose={close}>
      <InviteLinkPanel />
      <div className="dialog-actions">
        <Link className="btn" to="/activity/invited" onClick={close}>
          {t('activity.seeInvited')}
        </Link>
      </div>
    </Frame>
  );
}
