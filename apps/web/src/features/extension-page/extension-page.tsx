/** How to install the browser extension (seed 000 route `extension`). */
export function ExtensionPage() {
  return null;
}
