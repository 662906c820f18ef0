/** The account area's pages, fetched together the first time one of them opens (see router). */
export { AccountLayout } from '../features/account/account-layout';
export { ChangePasswordPage } from '../features/account/change-password-page';
export { ChangeEmailPage } from '../features/account/change-email-page';
export { DeleteAccountPage } from '../features/account/delete-account-page';
export { ProvidersPage } from '../features/account/providers-page';
export { AppsPage } from '../features/account/apps-page';
export { DevicesPage } from '../features/devices/devices-page';
export { SecurityLogPage } from '../features/account/security-log-page';
export { TwoFactorPage } from '../features/two-factor/two-factor-page';
export { PasskeysPage } from '../features/account/passkeys-page';
