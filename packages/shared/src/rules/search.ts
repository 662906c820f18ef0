/** Search matching of the file list: the same rule on the server's query and the client's local database. */

export interface SearchFilter {
  name?: string;
  star?: boolean;
  kind?: string;
  mimeType?: string;
  platform?: string;
  /** Keep the search to this folder and everything below it (the server walks the subtree). */
  folderId?: string;
}

interface Searchable {
  name: string;
  star: number;
  kind: string;
  mime_type: string;
  params?: Record<string, string>;
}

/** Name contains (case-insensitive); star equals 1; kind contains; mime type starts with; platform equals. */
export function matchesSearch(file: Searchable, f: SearchFilter): boolean {
  if (f.name && !file.name.toLowerCase().includes(f.name.toLowerCase())) return false;
  if (f.star && file.star !== 1) return false;
  if (f.kind && !file.kind.includes(f.kind)) return false;
  if (f.mimeType && !file.mime_type.startsWith(f.mimeType)) return false;
  if (f.platform && file.params?.platform !== f.platform) return false;
  return true;
}

/** A scope alone is not a search: it says where to look, not what for. */
export function isEmptySearch(f: SearchFilter): boolean {
  return !f.name && !f.star && !f.kind && !f.mimeType && !f.platform;
}
