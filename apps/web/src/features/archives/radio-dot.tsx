/**
 * The archive page's radio button, drawn as its tick boxes are (themed by --field-border and --accent-bg, in dark mode
 * too) over a real radio, so labels, the arrow keys between the choices and getByRole('radio') work as before.
 */
import type { ReactNode } from 'react';

interface Props {
  /** The group: the browser moves between its radios with the arrow keys. */
  name: string;
  checked: boolean;
  onChange: () => void;
}

export function RadioDot({ name, checked, onChange }: Props): ReactNode {
  return (
    <span className="radio-dot">
      <input type="radio" name={name} checked={checked} onChange={onChange} />
      <span className={`dot${checked ? ' on' : ''}`} aria-hidden="true" />
    </span>
  );
}
