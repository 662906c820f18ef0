/** Filling a route's path; apart from the route definitions so that clients can use it without loading TypeBox. */

/** Fills a path's parameters (`:id`) and literal colons (`::`) from `params`. */
export function fillPath(path: string, params: Record<string, unknown> = {}): string {
  return path
    .replace(/::/g, '\u0000')
    .replace(/:(\w+)/g, (_, k: string) => encodeURIComponent(String(params[k] ?? '')))
    .replace(/\*/, () => String(params['*'] ?? '').split('/').map(encodeURIComponent).join('/'))
    .replaceAll('\u0000', ':');
}
