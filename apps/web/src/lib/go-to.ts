/**
 * Navigation for code outside components (a toast's "Open folder"): the page's router registers itself here at start,
 * so plain modules need not import the router (which would pull every page into them).
 */
type Navigate = (to: string) => unknown;

let navigate: Navigate | null = null;

/** Called once with the router of the page (the drive's, or the share pages'). */
export function setNavigator(n: Navigate): void {
  navigate = n;
}

/** Goes to a drive path (without the /drive base), as a link inside the app would. */
export function goTo(to: string): void {
  if (navigate) void navigate(to);
  else window.location.assign(`/drive${to}`);
}
