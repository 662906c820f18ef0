/**
 * Which files the drive can open as archives, and the folder an archive unpacks into by default. The seeds' archive
 * category stays 7z, zip and rar (file-type.ts); tar and its compressed forms open too.
 */

const SUFFIXES = ['.tar.gz', '.tar.bz2', '.tar.xz', '.tar.zst', '.tgz', '.tbz2', '.tbz', '.txz', '.tzst', '.tar', '.zip', '.7z', '.rar'];

/** The archive suffix of a name ('.tar.gz', '.zip', …), or '' when the drive does not open it as an archive. */
export function archiveSuffix(name: string): string {
  const lower = name.toLowerCase();
  return SUFFIXES.find((s) => lower.endsWith(s) && lower.length > s.length) ?? '';
}

/** zip, 7z, rar, tar and compressed tar; an epub or a .docx (zips inside) is not one to the user. */
export function canDecompress(name: string): boolean {
  return archiveSuffix(name) !== '';
}

/** The name of the folder an archive unpacks into by default: its own name without the archive suffix. */
export function archiveFolderName(name: string): string {
  const suffix = archiveSuffix(name);
  return (suffix ? name.slice(0, -suffix.length) : name).trim() || name;
}

/** Compressed tar: one stream to decompress, then the tar inside. */
export function isCompressedTar(name: string): boolean {
  return /\.(tar\.(gz|bz2|xz|zst)|tgz|tbz2?|txz|tzst)$/i.test(name);
}
