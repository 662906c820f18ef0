/** The sidebar's screens: the app's navigation and the first paint from index.html draw the same list. */
import type { IconName } from '../../components/icon-paths';

export const NAV: { to: string; key: string; icon: IconName }[] = [
  { to: '/all', key: 'nav.all', icon: 'all' },
  { to: '/recent', key: 'nav.recent', icon: 'recent' },
  { to: '/star', key: 'nav.star', icon: 'star' },
  { to: '/shared', key: 'nav.shared', icon: 'shared' },
  { to: '/watch-history', key: 'nav.watchHistory', icon: 'history' },
  { to: '/bookmarks', key: 'nav.bookmarks', icon: 'bookmark' },
  { to: '/feeds', key: 'feeds.title', icon: 'list' },
  { to: '/trash', key: 'nav.trash', icon: 'trash' },
];
