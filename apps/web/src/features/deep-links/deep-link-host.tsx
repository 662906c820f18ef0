/** The seed's `action` deep links that open something in the drive. */
export function DeepLinkHost() {
  return null;
}
