/**
 * Routes behind sign-in: a signed-out visitor goes to login with the original query and a redirect back (or, at the bare
 * drive address, to the landing page).
 */
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useSessionStore } from './session-store';

export function loginTarget(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  params.set('redirect', pathname + search);
  return `/login?${params.toString()}`;
}

export function RequireAuth() {
  const session = useSessionStore((s) => s.session);
  const location = useLocation();
  if (!session) {
    // The bare drive address is a first visit more often than a return: it shows what Haul is, with the ways in.
    if (location.pathname === '/' && !location.search) return <Navigate to="/landing" replace />;
    return <Navigate to={loginTarget(location.pathname, location.search)} replace />;
  }
  return <Outlet />;
}

/** Share pages (/s/…) live outside the drive's router: going back to one is a page load. */
export const outsideDrive = (path: string) => path.startsWith('/s/');

export function LeaveTo({ href }: { href: string }) {
  useEffect(() => window.location.replace(href), [href]);
  return null;
}

/** Only same-app paths are followed after sign-in, never another origin. */
export function safeRedirect(raw: string | null): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/all';
  return raw;
}
