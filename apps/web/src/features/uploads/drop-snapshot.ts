/**
 * What a drop carries, read during the drop event itself: the browser empties a drop's DataTransfer once the event
 * is over, and the upload code loads on first use (after an await). Kept free of imports so the page's drop handler
 * can read it before loading anything.
 */
export interface DropContents {
  /** Top-level entries (files and folders), when the browser offers the entries API. */
  entries: FileSystemEntry[];
  files: File[];
}

export function readDrop(dt: DataTransfer): DropContents {
  return {
    entries: [...dt.items].map((i) => i.webkitGetAsEntry?.()).filter((e): e is FileSystemEntry => !!e),
    files: [...dt.files],
  };
}
