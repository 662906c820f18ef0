/** The route table of seed 000 §2, in history mode under /drive. */
import { createBrowserRouter, Navigate, Outlet, useParams } from 'react-router';
import { AccountLayout } from '../features/account/account-layout';
import { ChangePasswordPage } from '../features/account/change-password-page';
import { DeleteAccountPage } from '../features/account/delete-account-page';
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
import { BookmarksPage, ForbiddenPage, NotFoundPage } from './simple-pages';

/** Route ids are letters, digits, underscore and hyphen; anything else is not a page. */
export const ROUTE_ID = /^[A-Za-z0-9_-]+$/;

function ValidId() {
  const { id } = useParams();
  if (id !== undefined && !ROUTE_ID.test(id)) return <NotFoundPage />;
  return <Outlet />;
}

function Drive() {
  return (
    <>
      <AppLayout />
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
    { path: 'forget-password', element: <ForgetPasswordPage /> },
    { path: '403', element: <ForbiddenPage /> },
    {
      element: <RequireAuth />,
      children: [
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
            { path: 'bookmarks', element: <BookmarksPage /> },
            // The seeds' account area; its other pages (profile, e-mail) are not built yet.
            {
              path: 'account',
              element: <AccountLayout />,
              children: [
                { index: true, element: <Navigate to="/account/password" replace /> },
                { path: 'password', element: <ChangePasswordPage /> },
                { path: 'destroy', element: <DeleteAccountPage /> },
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
