/** The file list's geometry: the list itself and the first paint from index.html lay rows out alike. */
export const ROW_H = 48;
export const ROW_H_MOBILE = 60;
export const CARD_W = 150;
export const CARD_H = 172;
/** A search result's tile has a line more: its folder. */
export const LOCATION_H = 20;

/** How many cards a grid row of `width` px holds. */
export const gridColumns = (width: number) => Math.max(1, Math.floor((width || CARD_W) / CARD_W));
