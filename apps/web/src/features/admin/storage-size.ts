/** Storage sizes as an operator reads and types them: whole units without a trailing ".0", limits typed in GB. */
import { formatSize } from '@haul/shared/plain';

/** One GB as the app counts it (1024³ bytes, as every size it shows). */
export const GB = 1024 ** 3;
/** The largest limit the form takes: 1 PB. */
export const MAX_LIMIT_GB = 1024 * 1024;

/** Bytes as "10 GB", "2.5 GB" or "1.18 MB": no decimals for a whole number of its unit, else up to two. */
export function sizeText(bytes: number, locale: string): string {
  let n = Math.max(0, bytes);
  while (n >= 1024) n /= 1024;
  const exact = (d: number) => Math.abs(n * 10 ** d - Math.round(n * 10 ** d)) < 1e-6;
  const decimals = exact(0) ? 0 : exact(1) ? 1 : exact(2) ? 2 : 1;
  return formatSize(bytes, decimals, locale);
}

/** A limit in GB for the form's field ("10", "2.5"): what the operator would type. */
export const gbValue = (bytes: number): string => String(Math.round((bytes / GB) * 100) / 100);

/** What the operator typed in GB, as bytes; a comma counts as the decimal mark. */
export function parseGb(text: string): { bytes: number } | { error: 'invalid' | 'tooBig' } {
  const s = text.trim().replace(',', '.');
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(s)) return { error: 'invalid' };
  const gb = Number(s);
  if (!Number.isFinite(gb)) return { error: 'invalid' };
  if (gb > MAX_LIMIT_GB) return { error: 'tooBig' };
  return { bytes: Math.round(gb * GB) };
}
