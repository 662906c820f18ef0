/**
 * The items a visitor ticked before signing in to save them. Signing in (or up) leaves the page and comes back to
 * it, so they are kept for this tab meanwhile; without them the save would take the whole share.
 */
const key = (shareId: string) => `haul.share-picks.${shareId}`;

export function keepPicks(shareId: string, ids: readonly string[]): void {
  if (ids.length) sessionStorage.setItem(key(shareId), JSON.stringify(ids));
  else sessionStorage.removeItem(key(shareId));
}

/** The kept picks, once: they are forgotten as they are read. */
export function takePicks(shareId: string): string[] {
  const raw = sessionStorage.getItem(key(shareId));
  sessionStorage.removeItem(key(shareId));
  try {
    const ids: unknown = JSON.parse(raw ?? '[]');
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}
