import { describe, expect, it } from 'vitest';
import { readDeepLink, splitIds, splitLinks, withoutDeepLink } from './deep-link-params';
import { marketingCookie, marketingOf } from './marketing-params';

const read = (qs: string) => readDeepLink(new URLSearchParams(qs));
const magnet = 'magnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567&dn=Big%20Buck&tr=http%3A%2F%2Ft.example%2Fa';

describe('readDeepLink', () => {
  it('reads a percent-encoded magnet link whole, as a protocol handler sends it', () => {
    const link = read(`action=create_task&url=${encodeURIComponent(magnet)}`);
    expect(link).toMatchObject({ action: 'create_task', links: [magnet], speedSave: false });
  });

  it('puts back the parameters an unencoded magnet link spilled into the query', () => {
    const link = read('action=create_task&url=magnet:?xt=urn:btih:abc&dn=Film&tr=http://t.example/a&tr=http://t.example/b');
    expect(link!.links).toEqual(['magnet:?xt=urn:btih:abc&dn=Film&tr=http%3A%2F%2Ft.example%2Fa&tr=http%3A%2F%2Ft.example%2Fb']);
  });

  it('takes links from url, repeated urls and __add_url in order and each once, and .torrent links apart', () => {
    const qs = new URLSearchParams([
      ['action', 'create_task'],
      ['url', 'https://a.example/1.iso'],
      ['urls', 'https://a.example/2.iso'],
      ['urls', 'https://a.example/3.iso\nhttps://a.example/1.iso'],
      ['__add_url', 'http://b.example/x'],
      ['torrent_file_url', 'https://c.example/t.torrent'],
      ['speed_save', '1'],
    ]);
    expect(readDeepLink(qs)).toMatchObject({
      links: [
        'https://a.example/1.iso',
        'https://a.example/2.iso',
        'https://a.example/3.iso',
        'http://b.example/x',
      ],
      torrentFileUrls: ['https://c.example/t.torrent'],
      speedSave: true,
    });
  });

  it('reads file ids comma-separated or repeated', () => {
    expect(read('action=open_file&file_ids=a1,b2&file_ids=c3,a1')!.fileIds).toEqual(['a1', 'b2', 'c3']);
    expect(read('action=show_task&task_id=t9')!.taskId).toBe('t9');
  });

  it('ignores an unknown or missing action', () => {
    expect(read('action=format_disk&url=https://a.example/')).toBeNull();
    expect(read('url=https://a.example/')).toBeNull();
    expect(read('')).toBeNull();
  });
});

describe('splitLinks', () => {
  it('splits on lines, spaces and commas before a link, but not on commas inside one', () => {
    expect(splitLinks(['https://a.example/x,y.iso,https://b.example/z magnet:?xt=urn:btih:1\r\n\nhttp://c.example/'])).toEqual([
      'https://a.example/x,y.iso',
      'https://b.example/z',
      'magnet:?xt=urn:btih:1',
      'http://c.example/',
    ]);
  });

  it('keeps what is not a link, for the dialog to refuse in words', () => {
    expect(splitLinks(['not-a-link'])).toEqual(['not-a-link']);
    expect(splitLinks(['', '  '])).toEqual([]);
  });
});

describe('splitIds', () => {
  it('drops empty pieces', () => expect(splitIds([',a,,b ,'])).toEqual(['a', 'b']));
});

describe('withoutDeepLink', () => {
  const rest = (qs: string) => withoutDeepLink(new URLSearchParams(qs))?.toString() ?? null;

  it('takes the action, its parameters and the page parameters, keeping the rest', () => {
    expect(rest('action=create_task&url=x&dn=Film&speed_save=1&preview=f1&__source=news&locale=ja')).toBe('preview=f1');
    expect(rest('action=open_file&file_ids=a&scene=home_recent')).toBe('');
  });

  it('takes an unknown action alone, and leaves search mode in the address', () => {
    expect(rest('action=nope&name=x')).toBe('name=x');
    expect(rest('action=search&name=x&from=mail')).toBe('action=search&name=x');
    expect(rest('action=search&name=x')).toBeNull();
    expect(rest('preview=f1')).toBeNull();
  });
});

describe('marketing parameters', () => {
  it('keeps source, medium, campaign and from, under short names, and nothing else', () => {
    const v = marketingOf(new URLSearchParams('__source=news&__medium=mail&__campaign=spring&from=ext&email=a@b.c'));
    expect(v!.toString()).toBe('from=ext&source=news&medium=mail&campaign=spring');
    expect(marketingOf(new URLSearchParams('action=open_file&__source='))).toBeNull();
  });

  it('keeps them in a cookie for half a day, for the whole site', () => {
    const cookie = marketingCookie(new URLSearchParams('source=news'), true);
    expect(cookie).toBe('haul_mkt=source%3Dnews; Max-Age=43200; Path=/; SameSite=Lax; Secure');
  });
});
