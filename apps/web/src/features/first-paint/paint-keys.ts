/** What index.html's first paint (paint.ts), the app (drop.ts) and the build (vite.config.ts) agree on. */
import keys from './paint-words.json';

export const FIRST_PAINT_ID = 'first-paint';

/**
 * The words the first paint shows, by i18n key: the sidebar's screens (nav-items.ts) and the list's column names. A
 * JSON list, so the build reads it without loading the app's modules.
 */
export const FIRST_PAINT_KEYS: readonly string[] = keys;
export type Words = Record<string, string>;
