/** The token a correct pass code earned, kept for this tab only, so a reload or a sign-in does not ask again. */
const key = (shareId: string) => `haul.share-token.${shareId}`;

export const loadShareToken = (shareId: string) => sessionStorage.getItem(key(shareId)) ?? '';

export function saveShareToken(shareId: string, token: string): void {
  if (token) sessionStorage.setItem(key(shareId), token);
  else sessionStorage.removeItem(key(shareId));
}
