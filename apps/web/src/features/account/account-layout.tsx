/** The account area (/account/…): its pages, with links between them above the page's heading. */
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';

export function AccountLayout() {
  const { t } = useTranslation();
  return (
    <>
      <nav className="account-nav" aria-label={t('account.area')}>
        <NavLink to="/account/basic">{t('profile.title')}</NavLink>
        <NavLink to="/account/password">{t('account.changePassword')}</NavLink>
        <NavLink to="/account/bind-email">{t('account.changeEmail')}</NavLink>
        <NavLink to="/account/bind-phone">{t('phone.navTitle')}</NavLink>
        <NavLink to="/account/devices">{t('devices.title')}</NavLink>
        <NavLink to="/account/two-factor">{t('twoFactor.title')}</NavLink>
        <NavLink to="/account/providers">{t('providers.pageTitle')}</NavLink>
        <NavLink to="/account/apps">{t('oauth.appsTitle')}</NavLink>
        <NavLink to="/account/webdav">{t('webdav.title')}</NavLink>
        <NavLink to="/account/destroy">{t('account.deleteAccount')}</NavLink>
      </nav>
      <Outlet />
    </>
  );
}
