/** The address a person types for their Haul, turned into the origin the API lives at. */

/** Hosts that are served over plain http when typed without a scheme: this machine and the local network. */
const LOCAL_HOST = /^(localhost|[\d.]+|\[[\da-f:]+\]|[^/:]+\.local)(:\d+)?(\/|$)/i;

/**
 * "haul.example.com", "https://haul.example.com/drive/all" → "https://haul.example.com". The API answers at the root
 * of the origin (/v1, /drive/v1) whatever page of the web app was copied. Typed without a scheme, a name is taken as
 * https and a local address (localhost, an IP, *.local) as http. Null when it is no http(s) address.
 */
export function haulOrigin(typed: string): string | null {
  const text = typed.trim();
  if (!text) return null;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
  const withScheme = hasScheme ? text : `${LOCAL_HOST.test(text) ? 'http' : 'https'}://${text}`;
  try {
    const url = new URL(withScheme);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (!url.hostname) return null;
    return url.origin;
  } catch {
    return null;
  }
}

/** The host a message names: "haul.example.com" rather than the whole origin. */
export const hostOf = (origin: string): string => {
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
};
