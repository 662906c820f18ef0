/** The account button: who is signed in, and sign out. */
import * as Menu from '@radix-ui/react-dropdown-menu';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { IconMenu } from '../../components/icon-menu';
import { Icon } from '../layout/icon';
import { getMe, signOut } from './auth-api';

export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: me } = useQuery({ queryKey: ['me'], queryFn: getMe, staleTime: 5 * 60_000 });
  const out = async () => {
    await signOut();
    queryClient.clear();
    navigate('/login', { replace: true });
  };
  return (
    <IconMenu label={t('account.menu')} button={me?.email ? me.email[0]!.toUpperCase() : <Icon name="user" />} buttonClassName="avatar">
      {me && <Menu.Label className="menu-label">{me.email}</Menu.Label>}
      <Menu.Item className="menu-item" onSelect={() => void out()}>
        {t('account.signOut')}
      </Menu.Item>
    </IconMenu>
  );
}
