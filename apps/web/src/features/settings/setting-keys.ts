/**
 * Where this browser keeps the settings that follow the account (localStorage): the screens read and write them here,
 * and settings-sync.ts puts the server's values here when the drive opens.
 */
export const SEARCH_HISTORY_KEY = 'haul.searchHistory';
export const PREVIEW_BAR_KEY = 'preview_bar_visible';
export const PARALLEL_UPLOADS_KEY = 'haul.parallelUploads';
