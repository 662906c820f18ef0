/**
 * Reading a deep link (seed 000 §2 "Query parameters", "Action values") from the address: which action, and what it
 * names (links, files, a task, a language). Pure, so the parsing is tested without a page.
 */

/** The seed's action values. `search` is route state (search-state.ts) and stays in the address. */
export const ACTIONS = [
  'bind_provider',
  'create_task',
  'highlight_files',
  'login_required',
  'move_files',
  'open_feedback',
  'open_file',
  'open_redeem_box',
  'required_set_password',
  'search',
  'show_activity_dialog',
  'show_beginner_dialog',
  'show_invite_dialog',
  'show_mobile_sidebar',
  'show_popup_window',
  'show_premium_transform_dialog',
  'show_storage_dialog',
  'show_task',
  'show_traffic_dialog',
] as const;
export type Action = (typeof ACTIONS)[number];

/**
 * Parameters taken from any drive address, with an action or without: the marketing ones (kept for half a day by
 * marketing-params.ts) and `locale` (the interface language, switched as the language menu does).
 */
export const PAGE_PARAMS = ['from', '__source', '__medium', '__campaign', 'locale'] as const;

/** Parameters an action takes; they leave the address with it. */
const ACTION_PARAMS = ['url', 'urls', '__add_url', 'torrent_file_url', 'file_ids', 'task_id', 'speed_save', 'scene'];

/** Keys of a magnet link (BEP 9 and its extensions) that an unencoded `url=magnet:?xt=…&dn=…` spills into the query. */
const MAGNET_KEYS = ['xt', 'dn', 'tr', 'xl', 'ws', 'as', 'xs', 'kt', 'mt', 'so', 'x.pe'];

export interface DeepLink {
  action: Action;
  /** create_task: the links to fetch, in order, each once. */
  links: string[];
  /** create_task: links to .torrent files, read by the server's URL checker and handed to the dialog as a torrent. */
  torrentFileUrls: string[];
  /** create_task: pre-ticks "Open when ready" (the seed's speed_save). */
  speedSave: boolean;
  /** open_file, highlight_files, move_files: the files named, each once. */
  fileIds: string[];
  /** show_task: the task to point at. */
  taskId: string | null;
}

const isAction = (v: string | null): v is Action => (ACTIONS as readonly string[]).includes(v ?? '');

/**
 * Links in a parameter's values: one a value (`urls` repeated), one a line, or separated by spaces or commas. A link
 * holds no raw whitespace, so spaces split safely; a comma splits only where the next link starts (http://, https://,
 * magnet:?), since links may hold commas of their own.
 */
export function splitLinks(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const v of values)
    for (const piece of v.split(/\s+|,(?=\s*(?:https?:\/\/|magnet:\?))/i)) {
      const link = piece.trim();
      if (link && !out.includes(link)) out.push(link);
    }
  return out;
}

/** A magnet link sent without percent-encoding loses its own parameters to the address's query: they are put back. */
function wholeMagnet(url: string, params: URLSearchParams): string {
  if (!/^magnet:\?/i.test(url)) return url;
  const spilled = new URLSearchParams();
  for (const [k, v] of params) if (MAGNET_KEYS.includes(k)) spilled.append(k, v);
  const rest = spilled.toString();
  return rest ? `${url}&${rest}` : url;
}

/** Ids in `file_ids`: comma-separated (as the seed's task params are), repeated, or both. */
export function splitIds(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const v of values)
    for (const piece of v.split(',')) {
      const id = piece.trim();
      if (id && !out.includes(id)) out.push(id);
    }
  return out;
}

/** The deep link the address holds, or null for none or an action this app does not know (ignored). */
export function readDeepLink(params: URLSearchParams): DeepLink | null {
  const action = params.get('action');
  if (!isAction(action)) return null;
  const url = params.get('url');
  const links = splitLinks([
    ...(url ? [wholeMagnet(url, params)] : []),
    ...params.getAll('urls'),
    ...params.getAll('__add_url'),
  ]);
  return {
    action,
    links,
    torrentFileUrls: splitLinks(params.getAll('torrent_file_url')).filter((l) => !links.includes(l)),
    speedSave: ['1', 'true'].includes(params.get('speed_save') ?? ''),
    fileIds: splitIds(params.getAll('file_ids')),
    taskId: params.get('task_id') || null,
  };
}

/**
 * The query without what a deep link consumed: the action (unless it is the route state `search`), its parameters, the
 * magnet keys a create_task spilled, and the page parameters. Null when there is nothing to take away.
 */
export function withoutDeepLink(params: URLSearchParams): URLSearchParams | null {
  const action = params.get('action');
  const consumed: string[] = [...PAGE_PARAMS];
  if (action !== null && action !== 'search') {
    consumed.push('action');
    // Unknown actions take nothing else: their other parameters may belong to the page.
    if (isAction(action)) consumed.push(...ACTION_PARAMS, ...(action === 'create_task' ? MAGNET_KEYS : []));
  }
  if (!consumed.some((k) => params.has(k))) return null;
  const rest = new URLSearchParams(params);
  for (const k of consumed) rest.delete(k);
  return rest;
}
