/**
 * The account button (the account's avatar): who is signed in, the account pages (profile, password, devices,
 * deletion), sign out, and sign out on every device.
 */
import * as Menu from '@radix-ui/react-dropdown-menu';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { IconMenu } from '../../components/icon-menu';
import { UserAvatar } from '../account/user-avatar';
import { Icon } from '../../components/icon';
import { useRedeemBox } from '../plans/redeem-box';
import { useInviteDialog } from '../activity/invite-dialog';
import { FeedbackMenuItem } from '../feedback/feedback-menu-item';
import { getMe } from './auth-api';
import { useSignOut } from './use-sign-out';

export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: me } = useQuery({ queryKey: ['me'], queryFn: getMe, staleTime: 5 * 60_000 });
  const out = useSignOut();
  const redeem = useRedeemBox();
  const invite = useInviteDialog();
  return (
    <IconMenu label={t('account.menu')} button={me ? <UserAvatar user={me} size={28} /> : <Icon name="user" />} buttonClassName="avatar">
      {me && <Menu.Label className="menu-label">{me.email}</Menu.Label>}
      <Menu.Item className="menu-item" onSelect={() => navigate('/account/basic')}>
        {t('profile.menuItem')}
      </Menu.Item>
      <Menu.Item className="menu-item" onSelect={() => navigate('/account/password')}>
        {t('account.changePassword')}
      </Menu.Item>
      <Menu.Item className="menu-item" onSelect={() => navigate('/space-management')}>
        {t('limits.spacePage')}
      </Menu.Item>
      <Menu.Item className="menu-item" onSelect={() => navigate('/traffic-management')}>
        {t('limits.trafficPage')}
      </Menu.Item>
      <Menu.Item className="menu-item" onSelect={() => navigate('/payment/management')}>
        {t('plans.menuItem')}
      </Menu.Item>
      <Menu.Item className="menu-item" onSelect={redeem.open}>
        {t('plans.redeemTitle')}
      </Menu.Item>
      <Menu.Item className="menu-item" onSelect={invite.open}>
        {t('activity.menuItem')}
      </Menu.Item>
      <FeedbackMenuItem />
      <Menu.Item className="menu-item" onSelect={() => navigate('/account/devices')}>
        {t('devices.title')}
      </Menu.Item>
      <Menu.Item className="menu-item" onSelect={() => navigate('/account/webdav')}>
        {t('webdav.title')}
      </Menu.Item>
      {/* It only opens the page that explains and confirms; the separator keeps it apart from signing out. */}
      <Menu.Item className="menu-item" onSelect={() => navigate('/account/destroy')}>
        {t('account.deleteAccount')}
      </Menu.Item>
      <Menu.Separator className="menu-sep" />
      <Menu.Item className="menu-item" onSelect={() => void out()}>
        {t('account.signOut')}
      </Menu.Item>
      <Menu.Item className="menu-item" onSelect={() => void out(true)}>
        {t('account.signOutEverywhere')}
      </Menu.Item>
    </IconMenu>
  );
}
