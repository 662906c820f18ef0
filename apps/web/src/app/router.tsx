/** The route table of seed 000 §2, in history mode under /drive. */
import { createBrowserRouter, Navigate, Outlet, useParams } from 'react-router';
import { AccountLayout } from '../features/account/account-layout';
import { ChangePasswordPage } from '../features/account/change-password-page';
import { ChangeEmailPage } from '../features/account/change-email-page';
import { DeleteAccountPage } from '../features/account/delete-account-page';
import { ProvidersPage } from '../features/account/providers-page';
import { AppsPage } from '../features/account/apps-page';
import { ConsentPage } from '../features/oauth/consent-page';
import { ProviderCallbackPage } from '../features/providers/provider-callback-page';
import { DevicesPage } from '../features/devices/devices-page';
import { TwoFactorPage } from '../features/two-factor/two-factor-page';
import { QrLoginPage } from '../features/devices/qr-login-page';
import { StandaloneArchiveLayout } from '../features/archives/standalone-archive-layout';
import { QrSignInPage } from '../features/devices/qr-sign-in-page';
import { ForgetPasswordPage } from '../features/auth/forget-password-page';
import { LoginPage } from '../features/auth/login-page';
import { RequireAuth } from '../features/auth/require-auth';
import { FileDialogs } from '../features/files/dialogs';
import { FileManagerPage } from '../features/files/file-manager-page';
import { AppLayout } from '../features/layout/app-layout';
import { RecentPage } from '../features/recent/recent-page';
import { TrashPage } from '../features/trash/trash-page';
import { UploadQuestions } from '../features/uploads/upload-questions';
import { TransferPanel } from '../features/uploads/transfer-panel';
import { ViewerHost } from '../features/viewer/viewer-host';
import { SharedPage } from '../features/shares/shared-page';
import { WatchHistoryPage } from '../features/history/watch-history-page';
import { LimitDialogHost } from '../features/limits/limit-dialog';
import { SpaceManagementPage, TrafficManagementPage } from '../features/limits/quota-pages';
import { useLimitsWatch } from '../features/limits/use-limits-watch';
import { PaymentManagementPage } from '../features/plans/payment-management-page';
import { PaymentPage } from '../features/plans/payment-page';
import { PaymentStatusPage } from '../features/plans/payment-status-page';
import { RedeemBoxHost } from '../features/plans/redeem-box';
import { SandboxCheckoutPage } from '../features/plans/sandbox-checkout-page';
import { ActivityLayout, InvitationPage, InvitedPage } from '../features/activity/activity-pages';
import { InviteDialogHost } from '../features/activity/invite-dialog';
import { BookmarksPage, ForbiddenPage, NotFoundPage } from './simple-pages';
import { DecompressionPage } from '../features/archives/decompression-page';
import { DecompressionResultPage } from '../features/archives/decompression-result-page';

/** Route ids are letters, digits, underscore and hyphen; anything else is not a page. */
export const ROUTE_ID = /^[A-Za-z0-9_-]+$/;

function ValidId() {
  const { id } = useParams();
  if (id !== undefined && !ROUTE_ID.test(id)) return <NotFoundPage />;
  return <Outlet />;
}

/** `/account/connect-{provider}` (seed route table) is the providers page; any other account address is not a page. */
function ConnectProvider() {
  const { page = '' } = useParams();
  return page.startsWith('connect-') ? <ProvidersPage /> : <NotFoundPage />;
}

function Drive() {
  useLimitsWatch();
  return (
    <>
      <AppLayout />
      <LimitDialogHost />
      <RedeemBoxHost />
      <InviteDialogHost />
      <FileDialogs />
      <TransferPanel />
      <UploadQuestions />
      <ViewerHost addressed />
    </>
  );
}

/** The drive's router; made on demand, so the share pages (their own router) never start this one. */
export const createDriveRouter = () =>
  createBrowserRouter(
  [
    { path: 'login', element: <LoginPage /> },
    // Providers send the browser back here, signed in or not (signing in, or connecting from the account page).
    { path: 'login/callback', element: <ProviderCallbackPage /> },
    { path: 'login/qr', element: <QrSignInPage /> },
    { path: 'forget-password', element: <ForgetPasswordPage /> },
    { path: '403', element: <ForbiddenPage /> },
    {
      element: <RequireAuth />,
      children: [
        // Opened from a scanned QR code, often on a phone: a page of its own, without the drive around it.
        { path: 'qr-login', element: <QrLoginPage /> },
        // A third-party app's consent screen: a page of its own, like the one above.
        { path: 'authorize', element: <ConsentPage /> },
        // The seeds' separate web-decompression page: the archive page alone, for links from outside the drive.
        {
          path: 'web-decompression/:fileId',
          element: <StandaloneArchiveLayout />,
          children: [
            { index: true, element: <DecompressionPage /> },
            { path: 'result', element: <DecompressionResultPage /> },
          ],
        },
        {
          element: <Drive />,
          children: [
            { index: true, element: <Navigate to="/all" replace /> },
            {
              element: <ValidId />,
              children: [
                { path: 'all/:id?', element: <FileManagerPage key="all" view="all" /> },
                { path: 'star/:id?', element: <FileManagerPage key="star" view="star" /> },
                { path: 'recent/:id?', element: <RecentPage /> },
                { path: 'shared/:id?', element: <SharedPage /> },
                { path: 'watch-history/:id?', element: <WatchHistoryPage /> },
              ],
            },
            { path: 'trash', element: <TrashPage /> },
            // The seeds' decompression page and its result child; an archive is the account's own, so signed in.
            { path: 'decompression/:fileId', element: <DecompressionPage /> },
            { path: 'decompression/:fileId/result', element: <DecompressionResultPage /> },
            { path: 'bookmarks', element: <BookmarksPage /> },
            { path: 'space-management', element: <SpaceManagementPage /> },
            { path: 'traffic-management', element: <TrafficManagementPage /> },
            // Buying needs an account, so the payment pages live in the signed-in app (the goods API is public).
            { path: 'payment', element: <PaymentPage kind="premium" /> },
            { path: 'payment/storage', element: <PaymentPage kind="storage" /> },
            { path: 'payment/traffic', element: <PaymentPage kind="transfer" /> },
            { path: 'payment/join-vip', element: <Navigate to="/payment" replace /> },
            { path: 'payment/subscription', element: <Navigate to="/payment/management" replace /> },
            { path: 'payment/management', element: <PaymentManagementPage /> },
            { path: 'payment/status/:orderId', element: <PaymentStatusPage /> },
            { path: 'payment/sandbox/:orderId', element: <SandboxCheckoutPage /> },
            // Invitations (seed route `activity`): the link is the account's own, so these need sign-in too.
            {
              path: 'activity',
              element: <ActivityLayout />,
              children: [
                { index: true, element: <Navigate to="/activity/invited" replace /> },
                { path: 'invitation', element: <InvitationPage /> },
                { path: 'invitation-dialog', element: <Navigate to="/activity/invitation?action=show_invite_dialog" replace /> },
                { path: 'invited', element: <InvitedPage /> },
              ],
            },
            // The seeds' account area; the profile comes first.
            {
              path: 'account',
              element: <AccountLayout />,
              children: [
                { index: true, element: <Navigate to="/account/basic" replace /> },
                // These two show or check phone numbers: they load with the numbering plans, on first use.
                { path: 'basic', lazy: async () => ({ Component: (await import('../features/account/profile-page')).ProfilePage }) },
                { path: 'password', element: <ChangePasswordPage /> },
                { path: 'bind-email', element: <ChangeEmailPage /> },
                { path: 'bind-phone', lazy: async () => ({ Component: (await import('../features/account/bind-phone-page')).BindPhonePage }) },
                { path: 'devices', element: <DevicesPage /> },
                { path: 'two-factor', element: <TwoFactorPage /> },
                { path: 'destroy', element: <DeleteAccountPage /> },
                { path: 'providers', element: <ProvidersPage /> },
                { path: 'apps', element: <AppsPage /> },
                { path: 'webdav', lazy: async () => ({ Component: (await import('../features/webdav/webdav-page')).WebdavPage }) },
                // The seeds' /account/connect-{provider}: the providers page, where each provider connects.
                { path: ':page', element: <ConnectProvider /> },
              ],
            },
          ],
        },
      ],
    },
    { path: '*', element: <NotFoundPage /> },
  ],
  { basename: '/drive' },
);
