/** The route table of seed 000 §2, in history mode under /drive. */
import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, Outlet, useParams, type RouteObject } from 'react-router';
import { RequireAuth } from '../features/auth/require-auth';
import { useDialog } from './dialogs/dialog-store';
import { FileManagerPage } from '../features/files/file-manager-page';
import { AppLayout } from '../features/layout/app-layout';
import { UploadQuestions } from '../features/uploads/upload-questions';
import { TransferPanel } from '../features/uploads/transfer-panel';
import { ViewerHost } from '../features/viewer/viewer-host';
import { useLimitDialog } from '../features/limits/limit-store';
import { useLimitsWatch } from '../features/limits/use-limits-watch';
import { RedeemBoxHost } from '../features/plans/redeem-box';
import { usePremiumTransform } from '../features/plans/premium-transform-store';
import { InviteDialogHost } from '../features/activity/invite-dialog';
import { DeepLinkHost } from '../features/deep-links/deep-link-host';
import { SharedArrivalHost } from '../features/pwa/shared-arrival-host';
import { ForbiddenPage, NotFoundPage, StartingPage } from './simple-pages';
import { loadWhen } from './load-when';
import { SetupGate } from '../features/setup/setup-gate';

/**
 * Only the drive's first screen (the layout and the file manager) is in the first download; every other page is a
 * lazy route whose code is fetched when it is first opened, and the dialogs when they first open.
 */
const page =
  <M,>(load: () => Promise<M>, pick: (m: M) => ComponentType) =>
  async () => ({ Component: pick(await load()) });
const account = () => import('./account-pages');
const DialogHost = loadWhen(
  async () => (await import('./dialogs/dialog-host')).DialogHost,
  () => useDialog((s) => !!s.dialog),
);
const PremiumTransformHost = loadWhen(
  async () => (await import('../features/plans/premium-transform-dialog')).PremiumTransformHost,
  () => usePremiumTransform((s) => s.shown),
);
const LimitDialogHost = loadWhen(
  async () => (await import('../features/limits/limit-dialog')).LimitDialogHost,
  () => useLimitDialog((s) => !!s.open),
);

/** Route ids are letters, digits, underscore and hyphen; anything else is not a page. */
export const ROUTE_ID = /^[A-Za-z0-9_-]+$/;

function ValidId() {
  const { id } = useParams();
  if (id !== undefined && !ROUTE_ID.test(id)) return <NotFoundPage />;
  return <Outlet />;
}

/** `/account/connect-{provider}` (seed route table) is the providers page; any other account address is not a page. */
function ConnectProvider({ Page }: { Page: ComponentType }) {
  const { page = '' } = useParams();
  return page.startsWith('connect-') ? <Page /> : <NotFoundPage />;
}

function Drive() {
  useLimitsWatch();
  return (
    <>
      <AppLayout />
      <LimitDialogHost />
      <RedeemBoxHost />
      <PremiumTransformHost />
      <InviteDialogHost />
      <DeepLinkHost />
      <SharedArrivalHost />
      <DialogHost />
      <TransferPanel />
      <UploadQuestions />
      <ViewerHost addressed />
    </>
  );
}

/**
 * Every route under one that shows the loading bar while a fresh page's lazy route loads (React Router's
 * HydrateFallback); without it React Router warns on every load that opens on a lazy page (sign-in, the account pages).
 */
const withFallback = (routes: RouteObject[]): RouteObject[] => [{ HydrateFallback: StartingPage, children: routes }];

/** The drive's router; made on demand, so the share pages (their own router) never start this one. */
export const createDriveRouter = () =>
  createBrowserRouter(
  withFallback([
    {
      // A fresh install sends its first visitor to setup, from wherever they arrive signed out.
      element: <SetupGate />,
      children: [
        { path: 'login', lazy: page(() => import('../features/auth/login-page'), (m) => m.LoginPage) },
        { path: 'landing', lazy: page(() => import('../features/landing/landing-page'), (m) => m.LandingPage) },
      ],
    },
    { path: 'setup', lazy: page(() => import('../features/setup/setup-page'), (m) => m.SetupPage) },
    // Providers send the browser back here, signed in or not (signing in, or connecting from the account page).
    { path: 'login/callback', lazy: page(() => import('../features/providers/provider-callback-page'), (m) => m.ProviderCallbackPage) },
    { path: 'login/qr', lazy: page(() => import('../features/devices/qr-sign-in-page'), (m) => m.QrSignInPage) },
    { path: 'login/code', lazy: page(() => import('../features/auth/code-sign-in-page'), (m) => m.CodeSignInPage) },
    { path: 'forget-password', lazy: page(() => import('../features/auth/forget-password-page'), (m) => m.ForgetPasswordPage) },
    { path: '403', element: <ForbiddenPage /> },
    // Signed-out page of seed 000 §2: how to install the extension.
    { path: 'extension', lazy: page(() => import('../features/extension-page/extension-page'), (m) => m.ExtensionPage) },
    // Seed 000 §2: the URL checker needs no sign-in (adding does).
    { path: 'url-checker', lazy: page(() => import('../features/url-checker/url-checker-page'), (m) => m.UrlCheckerPage) },
    // Seed 000: the premium-deduct notice is public; signed out it explains in general and offers to sign in.
    { path: 'notices/premium-deduct', lazy: page(() => import('../features/notices/premium-deduct-page'), (m) => m.PremiumDeductPage) },
    {
      element: <RequireAuth />,
      children: [
        // Opened from a scanned QR code, often on a phone: a page of its own, without the drive around it.
        { path: 'qr-login', lazy: page(() => import('../features/devices/qr-login-page'), (m) => m.QrLoginPage) },
        // A third-party app's consent screen: a page of its own, like the one above.
        { path: 'authorize', lazy: page(() => import('../features/oauth/consent-page'), (m) => m.ConsentPage) },
        // The seeds' separate web-decompression page: the archive page alone, for links from outside the drive.
        {
          path: 'web-decompression/:fileId',
          lazy: page(() => import('../features/archives/standalone-archive-layout'), (m) => m.StandaloneArchiveLayout),
          children: [
            { index: true, lazy: page(() => import('../features/archives/decompression-page'), (m) => m.DecompressionPage) },
            { path: 'result', lazy: page(() => import('../features/archives/decompression-result-page'), (m) => m.DecompressionResultPage) },
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
                { path: 'recent/:id?', lazy: page(() => import('../features/recent/recent-page'), (m) => m.RecentPage) },
                { path: 'shared/:id?', lazy: page(() => import('../features/shares/shared-page'), (m) => m.SharedPage) },
                { path: 'watch-history/:id?', lazy: page(() => import('../features/history/watch-history-page'), (m) => m.WatchHistoryPage) },
              ],
            },
            { path: 'trash', lazy: page(() => import('../features/trash/trash-page'), (m) => m.TrashPage) },
            // The seeds' decompression page and its result child; an archive is the account's own, so signed in.
            { path: 'decompression/:fileId', lazy: page(() => import('../features/archives/decompression-page'), (m) => m.DecompressionPage) },
            { path: 'decompression/:fileId/result', lazy: page(() => import('../features/archives/decompression-result-page'), (m) => m.DecompressionResultPage) },
            { path: 'bookmarks', lazy: page(() => import('../features/bookmarks/bookmarks-page'), (m) => m.BookmarksPage) },
            { path: 'feeds', lazy: page(() => import('../features/feeds/feeds-page'), (m) => m.FeedsPage) },
            // Feedback to the operator; the seed's second route shows the same page.
            { path: 'feedback', lazy: page(() => import('../features/feedback/feedback-page'), (m) => m.FeedbackPage) },
            { path: 'feedback-v2', lazy: page(() => import('../features/feedback/feedback-page'), (m) => m.FeedbackPage) },
            // The operator's console: its layout sends anyone else to the 403 page.
            {
              path: 'admin',
              lazy: page(() => import('../features/admin/admin-pages'), (m) => m.AdminLayout),
              children: [
                { index: true, lazy: page(() => import('../features/admin/admin-pages'), (m) => m.AdminUsersPage) },
                { path: 'users/:userId', lazy: page(() => import('../features/admin/admin-pages'), (m) => m.AdminUserPage) },
                { path: 'shares', lazy: page(() => import('../features/admin/admin-pages'), (m) => m.AdminSharesPage) },
                { path: 'system', lazy: page(() => import('../features/admin/admin-pages'), (m) => m.AdminSystemPage) },
                { path: 'settings', lazy: page(() => import('../features/admin/admin-pages'), (m) => m.AdminSettingsPage) },
                { path: 'feedback', lazy: page(() => import('../features/admin/admin-pages'), (m) => m.AdminFeedbackPage) },
                { path: 'reports', lazy: page(() => import('../features/admin/admin-pages'), (m) => m.AdminReportsPage) },
                { path: 'plans', lazy: page(() => import('../features/admin/admin-pages'), (m) => m.AdminMoneyPage) },
                { path: 'audit', lazy: page(() => import('../features/admin/admin-pages'), (m) => m.AdminAuditPage) },
              ],
            },
            { path: 'space-management', lazy: page(() => import('../features/limits/quota-pages'), (m) => m.SpaceManagementPage) },
            { path: 'traffic-management', lazy: page(() => import('../features/limits/quota-pages'), (m) => m.TrafficManagementPage) },
            // Buying needs an account, so the payment pages live in the signed-in app (the goods API is public).
            { path: 'payment', lazy: page(() => import('../features/plans/payment-page'), (m) => () => <m.PaymentPage kind="premium" />) },
            { path: 'payment/storage', lazy: page(() => import('../features/plans/payment-page'), (m) => () => <m.PaymentPage kind="storage" />) },
            { path: 'payment/traffic', lazy: page(() => import('../features/plans/payment-page'), (m) => () => <m.PaymentPage kind="transfer" />) },
            { path: 'payment/join-vip', element: <Navigate to="/payment" replace /> },
            { path: 'payment/subscription', element: <Navigate to="/payment/management" replace /> },
            { path: 'payment/management', lazy: page(() => import('../features/plans/payment-management-page'), (m) => m.PaymentManagementPage) },
            { path: 'payment/status/:orderId', lazy: page(() => import('../features/plans/payment-status-page'), (m) => m.PaymentStatusPage) },
            { path: 'payment/sandbox/:orderId', lazy: page(() => import('../features/plans/sandbox-checkout-page'), (m) => m.SandboxCheckoutPage) },
            // Invitations (seed route `activity`): the link is the account's own, so these need sign-in too.
            {
              path: 'activity',
              lazy: page(() => import('../features/activity/activity-pages'), (m) => m.ActivityLayout),
              children: [
                { index: true, element: <Navigate to="/activity/invited" replace /> },
                { path: 'invitation', lazy: page(() => import('../features/activity/activity-pages'), (m) => m.InvitationPage) },
                { path: 'invitation-dialog', element: <Navigate to="/activity/invitation?action=show_invite_dialog" replace /> },
                { path: 'invited', lazy: page(() => import('../features/activity/activity-pages'), (m) => m.InvitedPage) },
              ],
            },
            // The Telegram bot (seed route `bot` → `tg-management`), shown among the account's pages.
            {
              path: 'bot',
              lazy: page(account, (m) => m.AccountLayout),
              children: [
                { index: true, element: <Navigate to="/bot/tg-management" replace /> },
                { path: 'tg-management', lazy: page(() => import('../features/telegram/telegram-page'), (m) => m.TelegramPage) },
              ],
            },
            // The seeds' account area; the profile comes first.
            {
              path: 'account',
              lazy: page(account, (m) => m.AccountLayout),
              children: [
                { index: true, element: <Navigate to="/account/basic" replace /> },
                // These two show or check phone numbers: they load with the numbering plans, on first use.
                { path: 'basic', lazy: async () => ({ Component: (await import('../features/account/profile-page')).ProfilePage }) },
                { path: 'password', lazy: page(account, (m) => m.ChangePasswordPage) },
                { path: 'bind-email', lazy: page(account, (m) => m.ChangeEmailPage) },
                { path: 'bind-phone', lazy: async () => ({ Component: (await import('../features/account/bind-phone-page')).BindPhonePage }) },
                { path: 'devices', lazy: page(account, (m) => m.DevicesPage) },
                { path: 'security-log', lazy: page(account, (m) => m.SecurityLogPage) },
                { path: 'two-factor', lazy: page(account, (m) => m.TwoFactorPage) },
                { path: 'passkeys', lazy: page(account, (m) => m.PasskeysPage) },
                { path: 'destroy', lazy: page(account, (m) => m.DeleteAccountPage) },
                { path: 'providers', lazy: page(account, (m) => m.ProvidersPage) },
                { path: 'apps', lazy: page(account, (m) => m.AppsPage) },
                { path: 'webdav', lazy: async () => ({ Component: (await import('../features/webdav/webdav-page')).WebdavPage }) },
                // The seeds' /account/connect-{provider}: the providers page, where each provider connects.
                { path: ':page', lazy: page(account, (m) => () => <ConnectProvider Page={m.ProvidersPage} />) },
              ],
            },
          ],
        },
      ],
    },
    { path: '*', element: <NotFoundPage /> },
  ]),
  { basename: '/drive' },
);
