/** Parses the `filters` JSON of the file list (`{"trashed":{"eq":false},"name":{"contains":"x"}}`). */
import { PHASE, SORT_ORDERS, type SortOrder } from '@haul/shared';
import { badInput } from '../http/errors.js';
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

type Ops = Record<string, unknown>;

function str(v: unknown, key: string): string {
  if (typeof v !== 'string') throw badInput(`filters.${key} needs a string value.`);
  if (v.length > 1000) throw badInput(`filters.${key} is too long.`);
  return v;
}

function list(v: unknown, key: string): string[] {
  const items = Array.isArray(v) ? v : str(v, key).split(',');
  const out = items.map((s) => String(s).trim()).filter(Boolean);
  if (out.length > 1000) throw badInput(`filters.${key} lists too many values.`);
  return out;
}

function only(ops: Ops, key: string, allowed: string[]): [string, unknown] {
  const entries = Object.entries(ops);
  if (entries.length !== 1 || !allowed.includes(entries[0]![0])) {
    throw badInput(`filters.${key} takes one of the operators ${allowed.join(', ')}.`);
  }
  return entries[0]!;
}

/** Parses the filters; unknown fields or operators are refused with a message naming them. */
export function parseFilters(raw: string | undefined): FileFilters {
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badInput('filters must be a JSON object.');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw badInput('filters must be a JSON object.');
  const f: FileFilters = {};
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (!value || typeof value !== 'object') throw badInput(`filters.${key} must be an object like {"eq": ...}.`);
    const ops = value as Ops;
    switch (key) {
      case 'trashed': {
        const [, v] = only(ops, key, ['eq']);
        if (typeof v !== 'boolean') throw badInput('filters.trashed.eq must be true or false.');
        f.trashed = v;
        break;
      }
      case 'phase': {
        const [op, v] = only(ops, key, ['eq', 'in']);
        f.phases = op === 'eq' ? [str(v, key)] : list(v, key);
        const known = Object.values(PHASE) as string[];
        const bad = f.phases.find((p) => !known.includes(p));
        if (bad) throw badInput(`filters.phase: unknown phase "${bad}".`);
        break;
      }
      case 'system_tag': {
        const [, v] = only(ops, key, ['in', 'eq']);
        const tags = list(v, key);
        if (tags.some((t) => t !== 'STAR')) throw badInput('filters.system_tag only knows STAR.');
        f.star = true;
        break;
      }
      case 'star': {
        const [, v] = only(ops, key, ['eq']);
        f.star = v === true || v === 1 || v === '1';
        break;
      }
      case 'modified_time': {
        const [, v] = only(ops, key, ['gt']);
        const t = parseTime(v);
        if (t === null) throw badInput('filters.modified_time.gt must be an RFC 3339 time.');
        f.changedAfter = t;
        break;
      }
      case 'name': {
        const [, v] = only(ops, key, ['contains']);
        f.nameContains = str(v, key);
        break;
      }
      case 'kind': {
        const [, v] = only(ops, key, ['eq', 'contains']);
        f.kind = str(v, key);
        break;
      }
      case 'mime_type': {
        const [, v] = only(ops, key, ['prefix', 'eq']);
        f.mimePrefix = str(v, key);
        break;
      }
      case 'platform':
      case 'params.platform': {
        const [, v] = only(ops, key, ['eq']);
        f.platform = str(v, key);
        break;
      }
      case 'id': {
        const [, v] = only(ops, key, ['in']);
        f.ids = list(v, key);
        break;
      }
      case 'folder_id': {
        const [, v] = only(ops, key, ['eq']);
        f.folderId = str(v, key);
        if (!f.folderId) throw badInput('filters.folder_id.eq needs a folder id.');
        break;
      }
      default:
        throw badInput(`filters: unknown field "${key}".`);
    }
  }
  return f;
}

export function parseOrder(raw: string | undefined): SortOrder {
  if (!raw) return 'MODIFY_TIME_DESC';
  if (!(SORT_ORDERS as readonly string[]).includes(raw)) throw badInput(`order must be one of ${SORT_ORDERS.join(', ')}.`);
  return raw as SortOrder;
}
