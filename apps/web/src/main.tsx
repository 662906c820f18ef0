import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Toaster, toast } from 'sonner';
import { createDriveRouter } from './app/router';
import { setNavigator } from './lib/go-to';
import { bindQueryClient } from './features/files/settle-changes';
import { useThemeStore, watchSystemTheme } from './features/layout/theme-store';
import { isApiError } from './lib/api-error';
import { errorMessage } from './lib/error-message';
import { initI18n } from './lib/i18n';
import { installLeaveGuard } from './lib/pending-work';
import { activeUploads } from './features/uploads/upload-store';
import { shareIdOfCode } from './features/share-page/share-code';
import { SecondFactorDialog } from './features/two-factor/second-factor';
import { SiteTitle } from './features/site/site-name';
import { registerServiceWorker } from './features/pwa/register-service-worker';
import { FIRST_PAINT_MAX_MS, dropFirstPaint } from './features/first-paint/drop';
import './app/styles.css';

/** Every failed load shows the server's words; a signed-out answer is handled by the client (back to sign-in). */
function reportError(err: unknown) {
  if (isApiError(err, 'unauthenticated')) return;
  const msg = errorMessage(err);
  if (msg) toast.error(msg);
}

const queryClient = new QueryClient({
  // A query marked quiet shows its failure where its answer would be (a search result's folder).
  queryCache: new QueryCache({ onError: (err, query) => !query.meta?.quiet && reportError(err) }),
  mutationCache: new MutationCache({ onError: reportError }),
  defaultOptions: {
    queries: {
      // Final answers (not found, bad input, signed out) are not worth repeating.
      retry: (n, err) => n < 2 && !(isApiError(err) && err.status >= 400 && err.status < 500),
      refetchOnWindowFocus: false,
    },
  },
});
bindQueryClient(queryClient);

// A share code in the address (…?share_code=abc) opens that share; an unknown code just opens the app.
const shareCode = new URLSearchParams(window.location.search).get('share_code');
if (shareCode) {
  const id = await shareIdOfCode(shareCode).catch(() => null);
  if (id) window.location.replace(`/s/${id}`);
}

// Share links (/s/{id}) are their own small app; everything else is the drive under /drive.
const router = window.location.pathname.startsWith('/s/') ? (await import('./features/share-page/share-router')).shareRouter : createDriveRouter();
setNavigator((to) => router.navigate(to));
// index.html's first paint shows the folder's rows until the file list replaces them; a move to another address (a
// redirect included) or a slow start drops it, so it never hides what the app shows.
const startPath = window.location.pathname;
router.subscribe((state) => state.location.pathname !== startPath && dropFirstPaint());
setTimeout(dropFirstPaint, FIRST_PAINT_MAX_MS);

function Root() {
  const theme = useThemeStore((s) => s.choice);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <SiteTitle />
      <SecondFactorDialog />
      <Toaster position="bottom-center" theme={theme} richColors closeButton />
    </QueryClientProvider>
  );
}

await initI18n();
watchSystemTheme();
installLeaveGuard(() => activeUploads() > 0);
registerServiceWorker();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
