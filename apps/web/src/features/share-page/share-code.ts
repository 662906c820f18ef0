/** Share codes (seed 000 §5): a `share_code` in any address opens the share it names; empty is ignored, case too. */
import { haul } from '../../lib/api-client';

export async function shareIdOfCode(code: string): Promise<string | null> {
  const c = code.trim().toLowerCase();
  if (!c) return null;
  const res = await haul.call('resolveShareCode', { query: { code: c } });
  return res.data[0]?.content ?? null;
}
