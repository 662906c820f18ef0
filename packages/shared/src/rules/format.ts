/** Size and time formatting shared by the server's messages and the web client. */

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

// Building an Intl.NumberFormat costs far more than using one; a list formats thousands of sizes.
const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, decimals: number): Intl.NumberFormat {
  const key = `${locale}|${decimals}`;
  let f = numberFormats.get(key);
  if (!f) numberFormats.set(key, (f = new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals })));
  return f;
}

/** Bytes as B..PB in steps of 1024 with one decimal by default ("1.5 GB"); a locale formats the number its way ("1,5 GB"). */
export function formatSize(bytes: number | string, decimals = 1, locale?: string): string {
  let n = typeof bytes === 'string' ? Number(bytes) : bytes;
  if (!Number.isFinite(n) || n < 0) return '0 B';
  let unit = 0;
  while (n >= 1024 && unit < UNITS.length - 1) {
    n /= 1024;
    unit++;
  }
  if (unit === 0) return `${n} B`;
  const num = locale ? numberFormat(locale, decimals).format(n) : n.toFixed(decimals);
  return `${num} ${UNITS[unit]}`;
}

/** Seconds as hh:mm:ss with leading zero hours trimmed ("03:07", "1:02:03"). */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const mm = String(m).padStart(2, '0');
  const ss = String(sec).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** View and restore counts are shown capped ("999999+"). */
export function formatCount(n: number, cap = 999999): string {
  return n > cap ? `${cap}+` : String(n);
}
