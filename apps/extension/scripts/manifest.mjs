// The extension's manifest (Manifest V3) for each browser: Chromium runs the background as a service worker, Firefox
// as an event page (background.scripts) and wants an add-on id. No host permissions: the API answers the extension's
// origin with CORS, so no site's data is ever in reach; activeTab (granted by a menu click) reads a selection's links.

/** @param {'chromium' | 'firefox'} browser @param {string} version */
export function manifest(browser, version) {
  const icons = { 16: 'icons/16.png', 32: 'icons/32.png', 48: 'icons/48.png', 128: 'icons/128.png' };
  return {
    manifest_version: 3,
    name: 'Send to Haul',
    short_name: 'Haul',
    version,
    description: 'Sends links, magnets, pictures, videos and pages to your own Haul, which fetches them into your drive.',
    icons,
    action: { default_title: 'Haul', default_popup: 'popup.html', default_icon: { 16: icons[16], 32: icons[32] } },
    options_ui: { page: 'options.html', open_in_tab: true },
    permissions: ['storage', 'contextMenus', 'notifications', 'activeTab', 'scripting'],
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
