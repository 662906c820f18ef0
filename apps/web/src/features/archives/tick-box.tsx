/**
 * The archive page's tick box, drawn as the file list's (its .check box, themed by --field-border and --accent-bg) over
 * a real checkbox, so labels, keys, the indeterminate state and the tests' getByRole('checkbox') work as before.
 */
import type { ReactNode } from 'react';
import { Icon } from '../../components/icon';

interface Props {
  checked: boolean;
  /** Some, not all, of what it stands for is chosen. */
  mixed?: boolean;
  disabled?: boolean;
  /** The accessible name when no visible label surrounds the box. */
  label?: string;
  onChange: (checked: boolean) => void;
}

export function TickBox({ checked, mixed = false, disabled, label, onChange }: Props): ReactNode {
  return (
    <span className="tick-box">
      <input
        type="checkbox"
        aria-label={label}
        checked={checked}
        disabled={disabled}
        ref={(el) => {
          if (el) el.indeterminate = mixed;
        }}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span className={`check${checked || mixed ? ' on' : ''}`} aria-hidden="true">
        {checked ? <Icon name="check" size={14} /> : mixed ? <span className="tick-dash" /> : null}
      </span>
    </span>
  );
}
