/** Where a checkout address leads: a router path inside this app (the sandbox's checkout), or null for another site. */
export function checkoutPath(url: string): string | null {
  const u = new URL(url, window.location.href);
  return u.origin === window.location.origin && u.pathname.startsWith('/drive/') ? u.pathname.slice('/drive'.length) + u.search : null;
}
