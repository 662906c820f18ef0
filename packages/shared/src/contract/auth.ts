/** Who may call a route (no schemas here: the client and the web app read it from `@haul/shared/plain`). */

/**
 * Who may call a route:
 * - `user`: a signed-in user's bearer access token;
 * - `public`: anyone (sign-in, a share page: what it shows is what the link already grants);
 * - `signed-link`: the signature in the link is the permission (download, media and share content links);
 * - `tus`: a tus protocol endpoint that checks the bearer token itself, after the protocol's own checks;
 * - `admin`: an operator's own session (an account with the admin role; never an app's token).
 */
export type Auth = 'user' | 'public' | 'signed-link' | 'tus' | 'admin';

/** Whether a route takes a bearer access token (the person's, or an operator's). */
export const takesBearer = (auth: Auth): boolean => auth === 'user' || auth === 'tus' || auth === 'admin';
