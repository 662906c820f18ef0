/** Filling a route's path, and matching one; apart from the route definitions so clients can use them without TypeBox. */

/** Fills a path's parameters (`:id`) and literal colons (`::`) from `params`. */
export function fillPath(path: string, params: Record<string, unknown> = {}): string {
  return path
    .replace(/::/g, '\u0000')
    .replace(/:(\w+)/g, (_, k: string) => encodeURIComponent(String(params[k] ?? '')))
    .replace(/\*/, () => String(params['*'] ?? '').split('/').map(encodeURIComponent).join('/'))
    .replaceAll('\u0000', ':');
}

/** A contract path as a pattern: `:id` one segment, `*` the rest, `::` a literal colon. */
export function pathPattern(path: string): RegExp {
  const parts = path.split('::').map((piece) =>
    piece
      .split(/(:\w+|\*)/)
      .map((t) => (t === '*' ? '.*' : t.startsWith(':') ? '[^/]+' : t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join(''),
  );
  return new RegExp(`^${parts.join(':')}$`);
}
