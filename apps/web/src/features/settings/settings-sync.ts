/**
 * Settings that follow the person between browsers (GET/POST /v1/user/settings): read once the drive opens, the newer
 * of the server's and this browser's display mode kept, the server's search history, preview-bar choice and number
 * of uploads at once taken;
 * a change made here is sent 1 s after the last one (and when the page is left).
 */
import type { UserSettingItem } from '@haul/shared';
import { haul } from '../../lib/api-client';
import { useDisplayMode, type DisplayMode } from '../files/display-mode-store';
import { PARALLEL_UPLOADS_KEY, PREVIEW_BAR_KEY, SEARCH_HISTORY_KEY } from './setting-keys';

const SEND_AFTER_MS = 1000;

const pending = new Map<UserSettingItem, unknown>();
let timer: ReturnType<typeof setTimeout> | null = null;
/** True while the server's values are being applied: those are not changes to send back. */
let applying = false;

function flush(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  if (!pending.size) return;
  const items = [...pending].map(([item, value]) => ({ item, value }));
  pending.clear();
  void haul.call('saveUserSettings', { body: { items } }).catch(() => undefined);
}

/** Sends a changed setting soon; the latest value of an item wins. */
export function saveSetting(item: UserSettingItem, value: unknown): void {
  if (applying) return;
  pending.set(item, value);
  if (timer) clearTimeout(timer);
  timer = setTimeout(flush, SEND_AFTER_MS);
}

const displayValue = () => {
  const { global, orderSettingGlobal, viewSettingGlobal, byKey } = useDisplayMode.getState();
  return { global, orderSettingGlobal, viewSettingGlobal, byKey };
};

type DisplayValue = ReturnType<typeof displayValue>;

function apply(item: UserSettingItem, value: unknown): void {
  if (item === 'display_mode') {
    const server = value as DisplayValue;
    // The newer wins: a change made here before the server answered is not lost.
    if (server.global.last_modified >= useDisplayMode.getState().global.last_modified) useDisplayMode.setState(server);
    else saveSetting('display_mode', displayValue());
  } else if (item === 'search_history') localStorage.setItem(SEARCH_HISTORY_KEY, JSON.stringify(value));
  else if (item === 'preview_bar_visible') localStorage.setItem(PREVIEW_BAR_KEY, value ? '1' : '0');
  // The upload queue reads it at every turn.
  else if (item === 'max_parallel_uploads') {
    if (value === null) localStorage.removeItem(PARALLEL_UPLOADS_KEY);
    else localStorage.setItem(PARALLEL_UPLOADS_KEY, String(value));
  }
}

/** Starts following the account's settings; returns the stop. */
export function startSettingsSync(): () => void {
  let stopped = false;
  void haul
    .call('getUserSettings', { query: {} })
    .then(({ settings }) => {
      if (stopped) return;
      applying = true;
      try {
        for (const s of settings) apply(s.item, s.value);
      } finally {
        applying = false;
      }
    })
    .catch(() => undefined);
  const unsubscribe = useDisplayMode.subscribe((now: { global: DisplayMode }, before: { global: DisplayMode }) => {
    if (now !== before) saveSetting('display_mode', displayValue());
  });
  window.addEventListener('pagehide', flush);
  return () => {
    stopped = true;
    unsubscribe();
    window.removeEventListener('pagehide', flush);
    flush();
  };
}
