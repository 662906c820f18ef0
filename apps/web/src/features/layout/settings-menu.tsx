/** Theme and language menus, reachable from every screen (signed in or not). */
import * as Menu from '@radix-ui/react-dropdown-menu';
import { useTranslation } from 'react-i18next';
import { LOCALES } from '@haul/shared/plain';
import type { Locale } from '@haul/shared';
import { IconMenu } from '../../components/icon-menu';
import { changeLocale } from '../../lib/i18n';
import { LOCALE_NAMES } from '../../lib/locale';
import { Icon } from '../../components/icon';
import { useThemeStore, type ThemeChoice } from './theme-store';

const THEMES: ThemeChoice[] = ['system', 'light', 'dark'];

function ThemeMenu() {
  const { t } = useTranslation();
  const { choice, setChoice } = useThemeStore();
  return (
    <IconMenu label={t('settings.theme')} button={<Icon name={choice === 'dark' ? 'moon' : choice === 'light' ? 'sun' : 'contrast'} />}>
      <Menu.Label className="menu-label">{t('settings.theme')}</Menu.Label>
      <Menu.RadioGroup value={choice} onValueChange={(v) => setChoice(v as ThemeChoice)}>
        {THEMES.map((th) => (
          <Menu.RadioItem key={th} value={th} className="menu-item">
            <Menu.ItemIndicator className="menu-check">✓</Menu.ItemIndicator>
            {t(`settings.theme_${th}`)}
          </Menu.RadioItem>
        ))}
      </Menu.RadioGroup>
    </IconMenu>
  );
}

function LanguageMenu() {
  const { t, i18n } = useTranslation();
  return (
    <IconMenu label={t('settings.language')} button={<Icon name="globe" />}>
      <Menu.Label className="menu-label">{t('settings.language')}</Menu.Label>
      <Menu.RadioGroup value={i18n.language} onValueChange={(v) => void changeLocale(v as Locale)}>
        {LOCALES.map((l) => (
          <Menu.RadioItem key={l} value={l} className="menu-item" lang={l}>
            <Menu.ItemIndicator className="menu-check">✓</Menu.ItemIndicator>
            {LOCALE_NAMES[l]}
          </Menu.RadioItem>
        ))}
      </Menu.RadioGroup>
    </IconMenu>
  );
}

export function SettingsMenu() {
  return (
    <>
      <LanguageMenu />
      <ThemeMenu />
    </>
  );
}
