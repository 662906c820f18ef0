// The extension's manifest (Manifest V3) for each browser: Chromium runs the background as a service worker, Firefox
// as an event page (background.scripts) and wants an add-on id. No host permissions up front: the API answers the
// extension's origin with CORS; activeTab (granted by a menu click) reads a selection's links. Site access and the
// downloads API are optional, asked for only when a switch of catching is turned on (src/lib/catching.ts). Name and
// description come from _locales/ in the browser's language.

/** @param {'chromium' | 'firefox'} browser @param {string} version */
export function manifest(browser, version) {
  const icons = { 16: 'icons/16.png', 32: 'icons/32.png', 48: 'icons/48.png', 128: 'icons/128.png' };
  return {
    manifest_version: 3,
    name: '__MSG_extName__',
    short_name: 'Haul',
    version,
    description: '__MSG_extDescription__',
    default_locale: 'en',
    icons,
    action: { default_title: 'Haul', default_popup: 'popup.html', default_icon: { 16: icons[16], 32: icons[32] } },
    options_ui: { page: 'options.html', open_in_tab: true },
    permissions: ['storage', 'contextMenus', 'notifications', 'activeTab', 'scripting'],
    optional_permissions: ['downloads'],
    optional_host_permissions: ['http://*/*', 'https://*/*'],
    ...(browser === 'chromium'
      ? { background: { service_worker: 'background.js' }, minimum_chrome_version: '120' }
      : {
          background: { scripts: ['background.js'] },
          browser_specific_settings: {
            // 140 (142 on Android) is the first that reads data_collection_permissions, which the add-on store asks for.
            gecko: { id: 'send-to-haul@haul', strict_min_version: '140.0', data_collection_permissions: { required: ['none'] } },
            gecko_android: { strict_min_version: '142.0' },
          },
        }),
  };
}
