/**
 * Modified times that sync clients set: `X-OC-Mtime` (ownCloud/Nextcloud, unix seconds) on PUT, and PROPPATCH of
 * DAV:getlastmodified (an HTTP date), DAV:lastmodified (unix seconds, as rclone and ownCloud's server send it) and
 * Win32LastModifiedTime (Windows' mini-redirector, an HTTP date). Without them a client that compares times sees every
 * file as changed after an upload (it re-uploads all), or none after an edit that kept the size.
 */
import type { Db } from '../db/database.js';
import { HttpError } from '../http/errors.js';

export const MS_NS = 'urn:schemas-microsoft-com:';

/** The properties whose setting sets the file's modified time, as `ns local`. */
const TIME_PROPS = new Set(['DAV: getlastmodified', 'DAV: lastmodified', `${MS_NS} Win32LastModifiedTime`]);
export const isTimeProp = (ns: string, local: string) => TIME_PROPS.has(`${ns} ${local}`);

/** Times past this are refused: a date this far out is a client's mistake, and JavaScript dates end soon after. */
const LATEST = Date.UTC(9999, 11, 31);

/** Epoch ms of unix seconds (a decimal fraction allowed), or null. */
function fromSeconds(text: string): number | null {
  if (!/^\d{1,12}(\.\d+)?$/.test(text)) return null;
  const ms = Math.round(Number(text) * 1000);
  return ms <= LATEST ? ms : null;
}

/** Epoch ms of a property's value: an HTTP date or RFC 3339 time, or unix seconds; null when it is neither. */
export function parsePropTime(text: string): number | null {
  const t = text.trim();
  const seconds = fromSeconds(t);
  if (seconds !== null) return seconds;
  // An HTTP date names its zone ("GMT"); a bare local time would depend on the server's zone.
  if (!/[a-z]{3},|Z$|[+-]\d\d:?\d\d$|GMT|UTC/i.test(t)) return null;
  const ms = Date.parse(t);
  return Number.isFinite(ms) && ms >= 0 && ms <= LATEST ? ms : null;
}

/** The X-OC-Mtime header of a request as epoch ms: undefined when absent, a 400 when it is not unix seconds. */
export function ocMtimeOf(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const ms = typeof header === 'string' ? fromSeconds(header.trim()) : null;
  if (ms === null) throw new HttpError(400, 'invalid_argument', 'X-OC-Mtime must be a time in unix seconds.');
  return ms;
}

/** Sets a file's or folder's modified time (the files API's modified_time); a change, so sync clients see it. */
export async function setModifiedTime(db: Db, userId: string, fileId: string, ms: number, now: number): Promise<void> {
  await db.updateTable('files').set({ modified_time: ms, changed_time: now }).where('id', '=', fileId).where('user_id', '=', userId).execute();
}
