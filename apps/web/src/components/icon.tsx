/** A small inline icon set (stroke icons on a 24 grid), so no icon font or image request is needed. */
import { PATHS, type IconName } from './icon-paths';

export type { IconName };
export function Icon({ name, size = 20, className }: { name: IconName; size?: number; className?: string }) {
  // Stroke, fill and line caps come from the `svg.i` rule: fewer attributes to set on every row a scroll frame creates.
  return (
    <svg className={className ? `i ${className}` : 'i'} viewBox="0 0 24 24" width={size} height={size} aria-hidden="true">
      <path d={PATHS[name]} />
    </svg>
  );
}
