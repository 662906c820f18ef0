/** Parses the `filters` JSON of the file list (`{"trashed":{"eq":false},"name":{"contains":"x"}}`). */
import { PHASE, SORT_ORDERS, type SortOrder } from '@haul/shared';
import { badInput } from '../http/errors.js';
import { filterList, filterOperator, filterString, readFilters } from '../http/filters.js';
import { parseTime } from '../lib/time.js';

export interface FileFilters {
  trashed?: boolean;
  phases?: string[];
  star?: boolean;
  /** Incremental sync: everything changed after this time (epoch ms). */
  changedAfter?: number;
  nameContains?: string;
  kind?: string;
  mimePrefix?: string;
  platform?: string;
  ids?: string[];
  /** Search inside this folder and everything below it (see search-scope.ts). */
  folderId?: string;
}

const FIELDS = ['trashed', 'phase', 'system_tag', 'star', 'modified_time', 'name', 'kind', 'mime_type', 'platform', 'params.platform', 'id', 'folder_id'];

/** Parses the filters; unknown fields or operators are refused with a message naming them. */
export function parseFilters(raw: string | undefined): FileFilters {
  const f: FileFilters = {};
  for (const [key, ops] of Object.entries(readFilters(raw, FIELDS))) {
    switch (key) {
      case 'trashed': {
        const [, v] = filterOperator(ops, key, ['eq']);
        if (typeof v !== 'boolean') throw badInput('filters.trashed.eq must be true or false.');
        f.trashed = v;
        break;
      }
      case 'phase': {
        const [op, v] = filterOperator(ops, key, ['eq', 'in']);
        f.phases = op === 'eq' ? [filterString(v, key)] : filterList(v, key);
        const known = Object.values(PHASE) as string[];
        const bad = f.phases.find((p) => !known.includes(p));
        if (bad) throw badInput(`filters.phase: unknown phase "${bad}".`);
        break;
      }
      case 'system_tag': {
        const [, v] = filterOperator(ops, key, ['in', 'eq']);
        const tags = filterList(v, key);
        if (tags.some((t) => t !== 'STAR')) throw badInput('filters.system_tag only knows STAR.');
        f.star = true;
        break;
      }
      case 'star': {
        const [, v] = filterOperator(ops, key, ['eq']);
        f.star = v === true || v === 1 || v === '1';
        break;
      }
      case 'modified_time': {
        const [, v] = filterOperator(ops, key, ['gt']);
        const t = parseTime(v);
        if (t === null) throw badInput('filters.modified_time.gt must be an RFC 3339 time.');
        f.changedAfter = t;
        break;
      }
      case 'name': {
        const [, v] = filterOperator(ops, key, ['contains']);
        f.nameContains = filterString(v, key);
        break;
      }
      case 'kind': {
        const [, v] = filterOperator(ops, key, ['eq', 'contains']);
        f.kind = filterString(v, key);
        break;
      }
      case 'mime_type': {
        const [, v] = filterOperator(ops, key, ['prefix', 'eq']);
        f.mimePrefix = filterString(v, key);
        break;
      }
      case 'platform':
      case 'params.platform': {
        const [, v] = filterOperator(ops, key, ['eq']);
        f.platform = filterString(v, key);
        break;
      }
      case 'id': {
        const [, v] = filterOperator(ops, key, ['in']);
        f.ids = filterList(v, key);
        break;
      }
      case 'folder_id': {
        const [, v] = filterOperator(ops, key, ['eq']);
        f.folderId = filterString(v, key);
        if (!f.folderId) throw badInput('filters.folder_id.eq needs a folder id.');
        break;
      }
    }
  }
  return f;
}

export function parseOrder(raw: string | undefined): SortOrder {
  if (!raw) return 'MODIFY_TIME_DESC';
  if (!(SORT_ORDERS as readonly string[]).includes(raw)) throw badInput(`order must be one of ${SORT_ORDERS.join(', ')}.`);
  return raw as SortOrder;
}
