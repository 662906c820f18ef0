/** Client-side ordering of a folder read from the local database (seed 000 §4 "File lists": sorting). */
import type { DriveFile, SortOrder } from '@haul/shared';
import { isFolder } from './file-kind';

type Item = Pick<DriveFile, 'id' | 'name' | 'kind' | 'size' | 'modified_time' | 'file_extension'>;

const collators = new Map<string, Intl.Collator>();
function collator(locale: string) {
  let c = collators.get(locale);
  if (!c) collators.set(locale, (c = new Intl.Collator(locale, { numeric: true, sensitivity: 'base' })));
  return c;
}

const byTime = (a: Item, b: Item) => (a.modified_time < b.modified_time ? -1 : a.modified_time > b.modified_time ? 1 : 0);

/** Sorts in place and returns the array. Folders go first when pinned; with size sorting folders sort by time. */
export function sortFiles<T extends Item>(items: T[], order: SortOrder, pinFoldersTop: boolean, locale = 'en-US'): T[] {
  const names = collator(locale);
  const desc = order.endsWith('_DESC');
  const compare = (a: T, b: T): number => {
    let c: number;
    if (order.startsWith('NAME')) c = names.compare(a.name, b.name);
    else if (order.startsWith('SIZE')) c = isFolder(a) && isFolder(b) ? byTime(a, b) : Number(a.size) - Number(b.size);
    // Type: by extension either way, then always by name A to Z (as the server pages it).
    else if (order.startsWith('TYPE')) c = (desc ? -1 : 1) * names.compare(a.file_extension, b.file_extension) || names.compare(a.name, b.name);
    else c = byTime(a, b);
    if (!order.startsWith('TYPE') && desc) c = -c;
    return c || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  };
  return items.sort((a, b) => {
    if (pinFoldersTop) {
      const fa = isFolder(a);
      if (fa !== isFolder(b)) return fa ? -1 : 1;
    }
    return compare(a, b);
  });
}
