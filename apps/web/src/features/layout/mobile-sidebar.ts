/**
 * Opens the sidebar on a phone (seed action `show_mobile_sidebar`). The drawer's open state belongs to the layout, so
 * this presses the header's menu button, as the person would; wider screens always show the sidebar.
 */
import { MOBILE_QUERY } from './use-media';

/** The header's menu button, while it shows (phone widths) and the drawer is closed. */
const MENU_BUTTON = '.header button.only-mobile[aria-expanded="false"]';

/** Opens the drawer once the layout has drawn its header; false on a wide screen, where there is nothing to open. */
export function openMobileSidebar(): boolean {
  if (!matchMedia(MOBILE_QUERY).matches) return false;
  const press = (tries: number) => {
    const button = document.querySelector<HTMLButtonElement>(MENU_BUTTON);
    if (button) button.click();
    else if (tries > 0) requestAnimationFrame(() => press(tries - 1));
  };
  press(30);
  return true;
}
