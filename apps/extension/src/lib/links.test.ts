import { describe, expect, it } from 'vitest';
import { isFetchable, linksInText, pastedLines } from './links';

describe('linksInText', () => {
  it('finds http(s) and magnet links in running text, once each, without the sentence around them', () => {
    const text = 'See https://a.example/x.iso, then (http://b.example/y.bin). Again: https://a.example/x.iso! magnet:?xt=urn:btih:abc&dn=z';
    expect(linksInText(text)).toEqual(['https://a.example/x.iso', 'http://b.example/y.bin', 'magnet:?xt=urn:btih:abc&dn=z']);
  });

  it('keeps a closing parenthesis the link opened, and leaves other schemes out', () => {
    expect(linksInText('https://en.wikipedia.org/wiki/Film_(1999). ftp://x.example/a mailto:a@b.example')).toEqual([
      'https://en.wikipedia.org/wiki/Film_(1999)',
    ]);
  });
});

describe('pastedLines', () => {
  it('splits a paste box into links and lines that are not', () => {
    expect(pastedLines(' https://a.example/1 \n\nnot a link\r\nmagnet:?xt=urn:btih:abc\nhttps://a.example/1')).toEqual({
      links: ['https://a.example/1', 'magnet:?xt=urn:btih:abc'],
      bad: ['not a link'],
    });
  });
});

describe('isFetchable', () => {
  it('takes what the web app’s dialog takes', () => {
    expect(['https://a.example/', 'HTTP://A.EXAMPLE/x', 'magnet:?xt=urn:btih:abc'].every(isFetchable)).toBe(true);
    expect(['data:image/png;base64,AA', 'blob:https://a.example/1', 'magnet:', 'https://a.example/a b', 'file:///etc/passwd'].some(isFetchable)).toBe(false);
  });
});
