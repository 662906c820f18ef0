/** The account button: who is signed in, the account pages (password, deletion), sign out, and sign out on every device. */
import * as Menu from '@radix-ui/react-dropdown-menu';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { IconMenu } from '../../components/icon-menu';
import { Icon } from '../layout/icon';
import { getMe } from './auth-api';
import { useSignOut } from './use-sign-out';

export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: me } = useQuery({ queryKey: ['me'], queryFn: getMe, staleTime: 5 * 60_000 });
  const out = useSignOut();
  return (
    <IconMenu label={t('account.menu')} button={me?.email ? me.email[0]!.toUpperCase() : <Icon name="user" />} buttonClassName="avatar">
      {me && <Menu.Label className="menu-label">{me.email}</Menu.Label>}
      <Menu.Item className="menu-item" onSelect={() => navigate('/account/password')}>
        {t('account.changePassword')}
      </Menu.Item>
      <Menu.Item className="menu-item" onSelect={() => navigate('/account/devices')}>
        {t('devices.title')}
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
