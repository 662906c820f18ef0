/**
 * Download allowances at the links that send file bytes: what a response is about to send is counted first (so
 * parallel downloads cannot together pass a limit), and what it did not send, because the client went away, is given
 * back when it closes; a Range request counts the range.
 */
import { Transform, type Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { chargeDownload, refund, type Charge } from '../quotas/traffic.js';
import type { AppContext } from '../context.js';
import { isDiskFull } from '../http/errors.js';

/**
 * Counts `bytes` against the payer's month and day; throws the limit error when they do not fit. On a full disk the
 * count cannot be written: the download goes out uncounted, since reading what is stored must keep working then.
 */
export async function chargeForDownload(ctx: AppContext, payerId: string, bytes: number): Promise<Charge> {
  try {
    return await ctx.db.transaction().execute((trx) => chargeDownload(ctx, trx, payerId, bytes));
  } catch (err) {
    if (isDiskFull(err)) return { keys: [], bytes: 0 };
    throw err;
  }
}

/** `body`, counting what passes; when the response closes, the rest of the charge that did not pass is given back. */
export function metered(ctx: AppContext, reply: FastifyReply, body: Readable, charge: Charge): Readable {
  let passed = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      passed += chunk.length;
      done(null, chunk);
    },
  });
  reply.raw.once('close', () => {
    // What passed reached the socket (what still sat in its buffer is counted as sent). Less than the charge: a reader
    // who went away, or a body smaller than its bound (a zip's deflated entries): the rest is given back.
    if (passed < charge.bytes) void refund(ctx.db, charge, charge.bytes - passed).catch(() => undefined);
  });
  body.on('error', (err) => counter.destroy(err));
  return body.pipe(counter);
}
