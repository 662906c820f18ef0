import { beforeEach, describe, expect, it } from 'vitest';
import { loadShareToken, saveShareToken } from './share-token';

const NOW = 1_700_000_000_000;
const tokenEnding = (ms: number) => `${ms}.abcdefghijklmnopqrstuvwxyz`;

describe('share tokens', () => {
  beforeEach(() => localStorage.clear());

  it('keeps a token per share until the expiry it carries', () => {
    saveShareToken('one', tokenEnding(NOW + 60_000), NOW);
    expect(loadShareToken('one', NOW + 59_999)).toBe(tokenEnding(NOW + 60_000));
    expect(loadShareToken('two', NOW)).toBe('');
    expect(loadShareToken('one', NOW + 60_000)).toBe('');
    // Read once expired, it is gone for good.
    expect(localStorage.getItem('haul.share-token.one')).toBeNull();
  });

  it('gives a token that does not say when it ends no more than two hours', () => {
    saveShareToken('one', 'opaque', NOW);
    expect(loadShareToken('one', NOW + 2 * 3600_000 - 1)).toBe('opaque');
    expect(loadShareToken('one', NOW + 2 * 3600_000)).toBe('');
  });

  it('forgets a token on request, and the expired tokens of other shares when keeping one', () => {
    saveShareToken('old', tokenEnding(NOW + 1000), NOW);
    saveShareToken('one', tokenEnding(NOW + 60_000), NOW + 2000);
    expect(localStorage.getItem('haul.share-token.old')).toBeNull();
    saveShareToken('one', '', NOW + 3000);
    expect(loadShareToken('one', NOW + 3000)).toBe('');
  });
});
