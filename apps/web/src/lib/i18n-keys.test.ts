// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { missingKeys, usedKeys } from '../../scripts/i18n-keys.mjs';

describe('translation keys', () => {
  const { keys } = usedKeys();

  it('finds the keys the code names (the extraction works)', () => {
    expect(keys.size).toBeGreaterThan(500);
    expect(keys.get('errors.file_duplicated_name')).toContain('src/lib/error-texts.ts');
  });

  it('has every key the code names in every locale', () => {
    const missing = missingKeys(keys);
    const report = Object.entries(missing).map(
      ([locale, lacking]) => `${locale} lacks ${lacking.map((k) => `${k} (${keys.get(k)!.join(', ')})`).join('; ')}`,
    );
    expect(report, `Missing translation keys:\n${report.join('\n')}`).toEqual([]);
  });
});
