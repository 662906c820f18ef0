/** The account area (/account/…): its pages, with links between them above the page's heading. */
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useLocation } from 'react-router';
import { useScrollEdges } from '../../components/use-scroll-edges';

export function AccountLayout() {
  const { t } = useTranslation();
  // A dozen links do not fit a phone's width: the strip scrolls, and shows that it does.
  const strip = useScrollEdges<HTMLElement>(useLocation().pathname);
  return (
    <>
      <nav className="account-nav scroll-edges" aria-label={t('account.area')} ref={strip}>
        <NavLink to="/account/basic">{t('profile.title')}</NavLink>
        <NavLink to="/account/password">{t('account.changePassword')}</NavLink>
        <NavLink to="/account/bind-email">{t('account.changeEmail')}</NavLink>
        <NavLink to="/account/bind-phone">{t('phone.navTitle')}</NavLink>
        <NavLink to="/account/devices">{t('devices.title')}</NavLink>
        <NavLink to="/account/security-log">{t('securityLog.title')}</NavLink>
        <NavLink to="/account/two-factor">{t('twoFactor.title')}</NavLink>
        <NavLink to="/account/passkeys">{t('passkeys.title')}</NavLink>
        <NavLink to="/account/providers">{t('providers.pageTitle')}</NavLink>
        <NavLink to="/account/apps">{t('oauth.appsTitle')}</NavLink>
        <NavLink to="/account/webdav">{t('webdav.title')}</NavLink>
        <NavLink to="/bot/tg-management">{t('telegramBot.title')}</NavLink>
        <NavLink to="/account/destroy">{t('account.deleteAccount')}</NavLink>
      </nav>
      <Outlet />
    </>
  );
}
