/**
 * The popup's preview of the paste box, kept up to date as the person types: each link as it will be sent, and for a
 * single link what it holds: a web file's name, size and type (and whether the server has it already), or a torrent's
 * name, size and files with a box each, all ticked, to untick what is not wanted. A check is aborted when the box
 * changes.
 */
import type { HaulClient } from '@haul/client';
import { formatSize } from '@haul/shared/plain';
import { t } from '../lib/i18n';
import { chosenFileIds, inspectable, previewLink, previewLines, type LinkCheck, type PreviewLine, type TorrentPreview } from '../lib/preview';
import { describeFailure } from '../lib/words';

/** How long typing pauses before the box is read again. */
const SETTLE_MS = 400;

const KIND_WORDS = { http: 'kindHttp', magnet: 'kindMagnet', 'torrent-link': 'kindTorrent' } as const;

export interface PreviewView {
  /** What to add now: the torrent read (with the files picked), or nothing particular. */
  current(): { torrent: TorrentPreview | null; fileIds: number[] | undefined; noneChosen: boolean };
  refresh(): void;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text = '', className = ''): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  if (className) node.className = className;
  return node;
}

export function startPreview(box: HTMLTextAreaElement, area: HTMLElement, client: HaulClient, server: string): PreviewView {
  let torrent: TorrentPreview | null = null;
  let chosen = new Set<number>();
  let reading: AbortController | null = null;
  let settle: ReturnType<typeof setTimeout> | undefined;
  let shownFor = '';

  const count = () => {
    const legend = area.querySelector('legend');
    if (legend && torrent) legend.textContent = t('filesChosen', { n: chosen.size, total: torrent.listing.files.length });
  };

  const showTorrent = (found: TorrentPreview) => {
    torrent = found;
    chosen = new Set(found.listing.files.map((f) => f.index));
    const head = el('p', '', 'torrent-head');
    head.append(el('strong', found.listing.name), el('span', ` · ${formatSize(found.listing.size)}`, 'soft'));
    const set = el('fieldset', '', 'torrent-files');
    set.append(el('legend'));
    for (const f of found.listing.files) {
      const label = el('label');
      const tick = el('input');
      tick.type = 'checkbox';
      tick.checked = true;
      tick.addEventListener('change', () => {
        if (tick.checked) chosen.add(f.index);
        else chosen.delete(f.index);
        count();
      });
      label.append(tick, el('span', f.path), el('span', formatSize(f.size), 'soft'));
      set.append(label);
    }
    area.querySelector('.torrent')?.replaceChildren(head, set);
    count();
  };

  const showFile = (file: LinkCheck, into: HTMLElement) => {
    const head = el('p', '', 'torrent-head');
    const facts = [file.size ? formatSize(file.size) : t('sizeUnknown'), file.mime_type].filter(Boolean).join(' · ');
    head.append(el('strong', file.name), el('span', ` · ${facts}`, 'soft'));
    into.replaceChildren(head, ...(file.instant ? [el('p', t('instantOnServer'), 'soft')] : []));
  };

  const read = async (line: PreviewLine, into: HTMLElement) => {
    reading = new AbortController();
    const signal = reading.signal;
    into.replaceChildren(el('p', t(line.kind === 'http' ? 'checkingLink' : 'readingTorrent'), 'soft'));
    try {
      const found = await previewLink(client, line, signal);
      if (signal.aborted) return;
      if ('torrent' in found) showTorrent(found.torrent);
      else showFile(found.file, into);
    } catch (err) {
      if (signal.aborted) return;
      const why = describeFailure(err, server);
      into.replaceChildren(el('p', line.kind === 'http' ? t('linkNotChecked', { why }) : t('torrentNotRead', { why }), line.kind === 'http' ? 'soft' : 'error'));
    }
  };

  const refresh = () => {
    const text = box.value;
    if (text === shownFor) return;
    shownFor = text;
    reading?.abort();
    torrent = null;
    const { lines, bad } = previewLines(text);
    area.hidden = !lines.length && !bad.length;
    const list = el('ul', '', 'preview-lines');
    list.setAttribute('aria-label', t('previewTitle'));
    for (const line of lines) {
      const li = el('li');
      li.append(el('span', t(KIND_WORDS[line.kind]), 'kind'), el('span', line.link, 'link'));
      list.append(li);
    }
    for (const line of bad) {
      const li = el('li', '', 'bad');
      li.append(el('span', t('kindNotLink'), 'kind'), el('span', line, 'link'));
      list.append(li);
    }
    const torrentArea = el('div', '', 'torrent');
    area.replaceChildren(el('h2', t('previewTitle')), list, torrentArea);
    const one = inspectable(lines);
    if (one) void read(one, torrentArea);
  };

  box.addEventListener('input', () => {
    clearTimeout(settle);
    settle = setTimeout(refresh, SETTLE_MS);
  });

  return {
    current: () => ({
      torrent,
      fileIds: torrent ? chosenFileIds(torrent.listing, chosen) : undefined,
      noneChosen: !!torrent && chosen.size === 0,
    }),
    refresh: () => {
      clearTimeout(settle);
      refresh();
    },
  };
}
