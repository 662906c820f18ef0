/** The public share pages at /s/{shareId}: their own light layout, no sign-in needed to look. */
import { createBrowserRouter } from 'react-router';
import { NotFoundPage } from '../../app/simple-pages';
import { PublicSharePage } from './public-share-page';

export const shareRouter = createBrowserRouter(
  [
    { path: ':shareId', element: <PublicSharePage /> },
    { path: '*', element: <NotFoundPage /> },
  ],
  { basename: '/s' },
);
