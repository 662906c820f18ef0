import { describe, expect, it } from 'vitest';
import { sharedLinks } from './shared-links';

describe(sharedLinks.name, () => {
  it('finds the links of url, text and title, in that order, each once', () => {
    expect(sharedLinks('https://a.test/x', 'Look: https://b.test/y and magnet:?xt=urn:btih:abc too', 'https://a.test/x')).toEqual([
      'https://a.test/x',
      'https://b.test/y',
      'magnet:?xt=urn:btih:abc',
    ]);
  });

  it("drops the sentence's punctuation but keeps a link's own brackets", () => {
    expect(sharedLinks('', 'See https://a.test/file.iso. Or (https://b.test/c), https://en.wikipedia.org/wiki/Haul_(film)!')).toEqual([
      'https://a.test/file.iso',
      'https://b.test/c',
      'https://en.wikipedia.org/wiki/Haul_(film)',
    ]);
  });

  it('finds nothing in words, other schemes or bare prefixes', () => {
    expect(sharedLinks('', 'just words, ftp://x.test/a, javascript:alert(1), http:// and magnet:?', 'A title')).toEqual([]);
  });
});
