/** An icon button that opens a menu under it, aligned to its end: the header's menus, sorting, the viewer's "more". */
import * as Menu from '@radix-ui/react-dropdown-menu';
import type { ReactNode } from 'react';

export interface IconMenuProps {
  /** The button's accessible name. */
  label: string;
  /** What the button shows (an icon, an initial). */
  button: ReactNode;
  buttonClassName?: string;
  menuClassName?: string;
  /** The menu's items (Radix dropdown parts). */
  children: ReactNode;
}

export function IconMenu({ label, button, buttonClassName, menuClassName, children }: IconMenuProps) {
  return (
    <Menu.Root>
      {/* The title is the icon's tooltip: the name a screen reader says, shown to the eye on hover. */}
      <Menu.Trigger className={buttonClassName ? `icon-btn ${buttonClassName}` : 'icon-btn'} aria-label={label} title={label}>
        {button}
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content className={menuClassName ? `menu ${menuClassName}` : 'menu'} align="end" sideOffset={6}>
          {children}
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
