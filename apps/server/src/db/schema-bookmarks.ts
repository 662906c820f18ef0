/** Bookmarks: links kept to fetch later; see the 0046 migration. */
export interface BookmarksTable {
  id: string;
  user_id: string;
  url: string;
  /** SHA-256 of url, hex: one bookmark per account and link. */
  url_key: string;
  name: string;
  kind: 'http' | 'magnet' | 'torrent';
  size: number | null;
  mime_type: string;
  checked_at: number | null;
  source: 'checker' | 'dialog' | 'extension' | 'file';
  created_at: number;
}
