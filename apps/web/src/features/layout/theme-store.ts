/** Light, dark or follow the system; remembered in localStorage (read before first paint by index.html). */
import { create } from 'zustand';

export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEME_KEY = 'haul.theme';

const systemDark = () => typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;

export function resolveTheme(choice: ThemeChoice, prefersDark = systemDark()): 'light' | 'dark' {
  return choice === 'system' ? (prefersDark ? 'dark' : 'light') : choice;
}

function apply(choice: ThemeChoice) {
  document.documentElement.dataset.theme = resolveTheme(choice);
}

interface ThemeState {
  choice: ThemeChoice;
  setChoice: (c: ThemeChoice) => void;
}

const saved = (typeof localStorage !== 'undefined' && (localStorage.getItem(THEME_KEY) as ThemeChoice | null)) || 'system';

export const useThemeStore = create<ThemeState>()((set) => ({
  choice: saved,
  setChoice: (choice) => {
    localStorage.setItem(THEME_KEY, choice);
    apply(choice);
    set({ choice });
  },
}));

/** Follows the system's light/dark switch while the choice is "system". */
export function watchSystemTheme(): () => void {
  if (typeof matchMedia !== 'function') return () => {};
  const mq = matchMedia('(prefers-color-scheme: dark)');
  const onChange = () => useThemeStore.getState().choice === 'system' && apply('system');
  mq.addEventListener('change', onChange);
  apply(useThemeStore.getState().choice);
  return () => mq.removeEventListener('change', onChange);
}
