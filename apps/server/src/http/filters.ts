/**
 * The `filters` query parameter every listing takes: a JSON object of field → {operator: value}
 * (`{"phase":{"in":"A,B"}}`). One reading for files, tasks, events and shares, so a client meets the same rules and
 * the same words everywhere: unknown fields and operators are refused, naming them.
 */
import { badInput } from './errors.js';

/** One field's operators, as sent. */
export type FilterOps = Record<string, unknown>;

/** The fields of `raw` (none when absent), each an object of operators; a field not in `known` is a 400. */
export function readFilters(raw: string | undefined, known: readonly string[]): Record<string, FilterOps> {
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badInput('filters must be a JSON object.');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw badInput('filters must be a JSON object.');
  for (const [key, value] of Object.entries(parsed)) {
    if (!known.includes(key)) throw badInput(`filters: unknown field "${key.slice(0, 60)}".`);
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw badInput(`filters.${key} must be an object like {"eq": ...}.`);
  }
  return parsed as Record<string, FilterOps>;
}

/** The one operator a field was given, from those it takes, with its value. */
export function filterOperator(ops: FilterOps, key: string, allowed: string[]): [string, unknown] {
  const entries = Object.entries(ops);
  if (entries.length !== 1 || !allowed.includes(entries[0]![0])) {
    throw badInput(`filters.${key} takes one of the operators ${allowed.join(', ')}.`);
  }
  return entries[0]!;
}

/** A string value of at most 1,000 characters. */
export function filterString(v: unknown, key: string): string {
  if (typeof v !== 'string') throw badInput(`filters.${key} needs a string value.`);
  if (v.length > 1000) throw badInput(`filters.${key} is too long.`);
  return v;
}

/** A list value: an array, or a string of comma-separated items; at most `max` items. */
export function filterList(v: unknown, key: string, max = 1000): string[] {
  const items = Array.isArray(v) ? v : filterString(v, key).split(',');
  const out = items.map((s) => String(s).trim()).filter(Boolean);
  if (out.length > max) throw badInput(`filters.${key} lists at most ${max} values.`);
  return out;
}
