/** Where the archive pages live: inside the drive (/decompression) or standing alone (/web-decompression). */
import { useLocation } from 'react-router';

/** The seeds' separate web-decompression page: the same page without the drive around it. */
export const STANDALONE_BASE = '/web-decompression';

/** The base path of the archive page being shown, so its links stay on the same kind of page. */
export function useArchiveBase(): string {
  return useLocation().pathname.startsWith(`${STANDALONE_BASE}/`) ? STANDALONE_BASE : '/decompression';
}
