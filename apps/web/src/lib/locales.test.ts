import { describe, expect, it } from 'vitest';
import { LOCALES } from '@haul/shared/plain';

const files = import.meta.glob<Record<string, unknown>>('../locales/*.json', { eager: true, import: 'default' });
const PLURAL = /_(zero|one|two|few|many|other)$/;

function flat(o: Record<string, unknown>, prefix = ''): Record<string, string> {
  return Object.entries(o).reduce<Record<string, string>>((acc, [k, v]) => {
    if (v && typeof v === 'object') Object.assign(acc, flat(v as Record<string, unknown>, `${prefix}${k}.`));
    else acc[`${prefix}${k}`] = String(v);
    return acc;
  }, {});
}

/** Keys without plural suffixes, each with the placeholders its texts use. */
function shape(lng: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(flat(files[`../locales/${lng}.json`]!))) {
    const base = k.replace(PLURAL, '');
    const vars = [...new Set(v.match(/{{\w+}}/g) ?? [])].sort().join(',');
    out.set(
      base,
      [...new Set([...(out.get(base)?.split(',').filter(Boolean) ?? []), ...vars.split(',').filter(Boolean)])].sort().join(','),
    );
  }
  return out;
}

describe('locales', () => {
  const en = shape('en-US');
  it.each(LOCALES.filter((l) => l !== 'en-US'))('%s translates every string with the same placeholders', (lng) => {
    expect(files[`../locales/${lng}.json`], `missing locales/${lng}.json`).toBeDefined();
    const tr = shape(lng);
    expect([...tr.keys()].sort()).toEqual([...en.keys()].sort());
    for (const [k, vars] of en) expect(tr.get(k), `${lng}: ${k}`).toBe(vars);
  });
});
