/** The phone layout below 768 px (seed 000 §9), and the other media queries the screens follow. */
export const MOBILE_QUERY = '(max-width: 767.98px)';
/** A phone, or a screen worked with a finger (a tablet): no files to drag in, no hover. */
export const TOUCH_OR_NARROW_QUERY = `${MOBILE_QUERY}, (pointer: coarse)`;
