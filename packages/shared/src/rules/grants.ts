/**
 * What a product, a redeem code or an invitation grants, written the way operators type it:
 * `premium:30d`, `storage:100GB` (for good), `storage:100GB/365d`, `transfer:50GB` (30 days), joined by commas.
 * Sizes count in 1024s, as the drive shows them (4 GB = 4 × 1073741824 bytes).
 */

export const GRANT_KINDS = ['premium', 'storage', 'transfer'] as const;
export type GrantKind = (typeof GRANT_KINDS)[number];

export interface GrantPart {
  kind: GrantKind;
  /** premium: none (its length is `days`); storage and transfer: bytes. */
  bytes: number;
  /** How long it lasts; null for storage granted for good. Transfer lasts 30 days unless told. */
  days: number | null;
}

const DAY_MS = 86_400_000;
export const TRANSFER_DAYS = 30;
const UNITS: Record<string, number> = { B: 1, KB: 2 ** 10, MB: 2 ** 20, GB: 2 ** 30, TB: 2 ** 40 };
const MAX_DAYS = 36_600;

export class GrantSpecError extends Error {}

function parseDays(text: string, whole: string): number {
  const m = /^(\d{1,5})d$/i.exec(text);
  const days = m ? Number(m[1]) : NaN;
  if (!(days >= 1 && days <= MAX_DAYS)) throw new GrantSpecError(`"${whole}": the length must be whole days from 1 to ${MAX_DAYS}, like 30d.`);
  return days;
}

function parseBytes(text: string, whole: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(B|KB|MB|GB|TB)$/i.exec(text);
  const bytes = m ? Math.round(Number(m[1]) * UNITS[m[2]!.toUpperCase()]!) : NaN;
  if (!(bytes >= 1 && Number.isSafeInteger(bytes))) throw new GrantSpecError(`"${whole}": the size must be like 500MB, 100GB or 2TB.`);
  return bytes;
}

export function parseGrantSpec(spec: string): GrantPart[] {
  const items = spec.split(',').map((s) => s.trim()).filter(Boolean);
  if (items.length === 0) throw new GrantSpecError('Nothing to grant: write e.g. premium:30d, storage:100GB or transfer:50GB.');
  return items.map((item) => {
    const [kind, value = ''] = item.split(':').map((s) => s.trim());
    if (kind === 'premium') return { kind, bytes: 0, days: parseDays(value, item) };
    if (kind === 'storage' || kind === 'transfer') {
      const [size = '', length] = value.split('/');
      const days = length !== undefined ? parseDays(length, item) : kind === 'transfer' ? TRANSFER_DAYS : null;
      return { kind, bytes: parseBytes(size, item), days };
    }
    throw new GrantSpecError(`"${item}": a grant is premium:<days>d, storage:<size>[/<days>d] or transfer:<size>[/<days>d].`);
  });
}

/** The normal form of a spec, as stored. */
export function formatGrantSpec(parts: readonly GrantPart[]): string {
  return parts
    .map((p) => {
      if (p.kind === 'premium') return `premium:${p.days}d`;
      const length = p.days === null || (p.kind === 'transfer' && p.days === TRANSFER_DAYS) ? '' : `/${p.days}d`;
      return `${p.kind}:${formatGrantBytes(p.bytes)}${length}`;
    })
    .join(',');
}

function formatGrantBytes(bytes: number): string {
  for (const unit of ['TB', 'GB', 'MB', 'KB'] as const) {
    const n = bytes / UNITS[unit]!;
    if (n >= 1 && Number.isInteger(n * 100)) return `${n}${unit}`;
  }
  return `${bytes}B`;
}

export const grantDurationMs = (part: GrantPart): number | null => (part.days === null ? null : part.days * DAY_MS);
