/** haul share PATH… [--code [CODE]] [--days N]: a share link, with a pass code when asked for. */
import { SHARE_EXPIRATION_DAYS } from '@haul/shared/plain';
import type { Ctx } from '../context.js';
import { resolveItem } from '../drive-paths.js';
import { CliError, EXIT } from '../output.js';

export async function share(ctx: Ctx, refs: string[], opts: { code?: string | boolean; days?: string; title?: string }): Promise<void> {
  const days = Number(opts.days ?? -1);
  if (!(SHARE_EXPIRATION_DAYS as readonly number[]).includes(days)) {
    throw new CliError(`--days takes ${SHARE_EXPIRATION_DAYS.filter((d) => d > 0).join(', ')}, or -1 for a link that never expires.`, EXIT.USAGE);
  }
  const items = await Promise.all(refs.map((r) => resolveItem(ctx.client, r)));
  if (items.some((i) => i.id === '')) throw new CliError('Share items of the drive, not its top.', EXIT.USAGE);
  const encrypted = opts.code !== undefined && opts.code !== false;
  const entry = await ctx.client.call('createShare', {
    body: {
      file_ids: items.map((i) => i.id),
      share_to: encrypted ? 'encryptedlink' : 'publiclink',
      expiration_days: days,
      ...(typeof opts.code === 'string' ? { pass_code: opts.code } : {}),
      ...(opts.title ? { title: opts.title } : {}),
    },
  });
  ctx.out.result(entry, () =>
    [entry.share_url, entry.pass_code ? `Pass code: ${entry.pass_code}` : '', days > 0 ? `Expires in ${days} day${days === 1 ? '' : 's'}.` : 'Never expires.'].filter(Boolean).join('\n'),
  );
}
