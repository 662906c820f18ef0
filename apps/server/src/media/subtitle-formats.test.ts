import { describe, expect, it } from 'vitest';
import { acceptedLanguages, cleanAss, cleanHtmlish, decodeSubtitleBytes, legacyEncoding, parseSubtitles, subtitleFormatOf, toWebVtt } from './subtitle-formats.js';
import { parseSubtitleStreams, subtitleKind } from './subtitle-streams.js';
import { sidecarNameParts } from './subtitle-sidecars.js';

describe('subtitle formats', () => {
  it('reads SRT with commas, CRLF, a byte order mark and numbered blocks', () => {
    const srt = '\uFEFF1\r\n00:00:01,000 --> 00:00:02,500\r\nHello\r\nthere\r\n\r\n2\r\n00:01:02,05 --> 00:01:03,000\r\n<i>Second</i>\r\n';
    expect(parseSubtitles(srt, 'srt')).toEqual([
      { start: 1, end: 2.5, text: 'Hello\nthere' },
      { start: 62.05, end: 63, text: '<i>Second</i>' },
    ]);
  });

  it('reads WebVTT, skipping the header, notes, styles and cue settings', () => {
    const vtt = 'WEBVTT - title\n\nNOTE a note\n\nSTYLE\n::cue { color: red }\n\nid-1\n00:02.000 --> 00:03.000 line:0 align:start\n<v Joe>Hi <c.loud>you</c></v>\n';
    expect(parseSubtitles(vtt, 'vtt')).toEqual([{ start: 2, end: 3, text: 'Hi you' }]);
  });

  it('reads ASS by its Format line, keeping commas in the text and dropping override tags', () => {
    const ass = [
      '[Script Info]', 'Title: x', '', '[V4+ Styles]', 'Format: Name, Fontname', 'Style: Default,Arial', '',
      '[Events]',
      'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
      'Dialogue: 0,0:00:05.00,0:00:06.50,Default,,0,0,0,,{\\an8\\pos(10,20)}{\\i1}Hello{\\i0}, {\\c&H00FF00&}world\\Nline two',
      'Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\p1}m 0 0 l 100 0 100 100',
      'Comment: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,not shown',
    ].join('\n');
    expect(parseSubtitles(ass, 'ass')).toEqual([{ start: 5, end: 6.5, text: '<i>Hello</i>, world\nline two' }]);
  });

  it('keeps b, i and u only, and escapes everything else', () => {
    expect(cleanHtmlish('<script>alert(1)</script><font color="red">Red</font> & <b class="x">bold</b>')).toBe('alert(1)Red &amp; <b>bold</b>');
    expect(cleanHtmlish('a < b and c > d')).toBe('a &lt; b and c &gt; d');
    expect(cleanHtmlish('<b><i>open')).toBe('<b><i>open</i></b>');
    expect(cleanHtmlish('{\\an8}Top')).toBe('Top');
    expect(cleanHtmlish('x --> y\n\n\nz')).toBe('x --&gt; y\nz');
    expect(cleanAss('{\\b1}<img src=x onerror=alert(1)>{\\b0}')).toBe('<b>&lt;img src=x onerror=alert(1)&gt;</b>');
  });

  it('writes WebVTT with hours and milliseconds', () => {
    expect(toWebVtt([{ start: 3661.5, end: 3662.25, text: 'x' }])).toBe('WEBVTT\n\n01:01:01.500 --> 01:01:02.250\nx\n');
  });

  it('decodes UTF-8, UTF-16 with a mark, and legacy bytes by language', () => {
    expect(decodeSubtitleBytes(Buffer.from('héllo'), 'windows-1252')).toBe('héllo');
    expect(decodeSubtitleBytes(Buffer.from('\uFEFFhi', 'utf16le'), 'windows-1252')).toBe('hi');
    expect(decodeSubtitleBytes(Buffer.from([0xc4, 0xe3, 0xba, 0xc3]), legacyEncoding(['zh-CN']))).toBe('你好');
    expect(decodeSubtitleBytes(Buffer.from([0xcf, 0xf0, 0xe8]), legacyEncoding(['', 'ru-RU']))).toBe('При');
    expect(legacyEncoding(['zh-TW'])).toBe('big5');
    expect(legacyEncoding(['xx'])).toBe('windows-1252');
    expect(acceptedLanguages('fr;q=0.5, ja-JP, *;q=0.1')).toEqual(['ja-JP', 'fr']);
  });

  it('knows subtitle files and sidecar names', () => {
    expect(subtitleFormatOf('a.SSA')).toBe('ass');
    expect(subtitleFormatOf('a.sub')).toBeNull();
    expect(sidecarNameParts('Film.mkv', 'Film.srt')).toEqual({ language: '', title: '' });
    expect(sidecarNameParts('Film.mkv', 'film.en.srt')).toEqual({ language: 'en', title: '' });
    expect(sidecarNameParts('Film.2020.mkv', 'Film.2020.zh-CN.forced.ass')).toEqual({ language: 'zh-CN', title: 'forced' });
    expect(sidecarNameParts('Film.mkv', 'Film.Director.Commentary.vtt')).toEqual({ language: '', title: 'Director Commentary' });
    expect(sidecarNameParts('Film.mkv', 'Filmography.srt')).toBeNull();
    expect(sidecarNameParts('Film.mkv', 'Film.en.txt')).toBeNull();
  });

  it('classifies streams: text codecs as text, pictures of text as image', () => {
    expect(subtitleKind('subrip')).toBe('text');
    expect(subtitleKind('hdmv_pgs_subtitle')).toBe('image');
    expect(subtitleKind('dvd_subtitle')).toBe('image');
    const json = JSON.stringify({
      streams: [
        { index: 2, codec_name: 'hdmv_pgs_subtitle', tags: { LANGUAGE: 'ger' }, disposition: { default: 0, forced: 1 } },
        { index: 3, codec_name: 'ass', tags: { language: 'und', title: 'Signs' }, disposition: { default: 1, forced: 0 } },
      ],
    });
    expect(parseSubtitleStreams(json)).toEqual([
      { index: 2, codec: 'hdmv_pgs_subtitle', kind: 'image', language: 'ger', title: '', default: false, forced: true },
      { index: 3, codec: 'ass', kind: 'text', language: '', title: 'Signs', default: true, forced: false },
    ]);
  });
});
