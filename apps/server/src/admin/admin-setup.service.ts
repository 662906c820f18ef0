/** The operator's first steps that reach outside the console: a test message through the mail, goods for sale. */
import type { AppContext } from '../context.js';
import { badInput, HttpError } from '../http/errors.js';
import { findUserById } from '../accounts/users.repository.js';
import { presentProduct, saveProduct, type Interval } from '../plans/catalog.js';
import { recordAudit } from '../audit/audit.repository.js';

/** Sends the operator a short message the way every message goes (SMTP, or the outbox without it). */
export async function sendTestMail(ctx: AppContext, operatorId: string) {
  const user = await findUserById(ctx.db, operatorId);
  if (!user) throw new HttpError(404, 'not_found', 'The account is gone.');
  const text = `This is a test message from Haul at ${ctx.config.publicUrl}. Mail from this server reaches you.`;
  try {
    await ctx.mailer.send({ to: user.email, subject: 'Haul: a test message', text, html: `<p>${text}</p>` });
  } catch (err) {
    throw new HttpError(503, 'unavailable', `The mail server did not take the message: ${(err as Error).message}`);
  }
  return { to: user.email, via: ctx.config.smtpUrl ? ('smtp' as const) : ('outbox' as const) };
}

export async function saveProductAsOperator(
  ctx: AppContext,
  actor: { id: string; ip: string },
  input: { id: string; title: string; grant: string; price: string; currency: string; interval: Interval; position?: number },
) {
  let row;
  try {
    row = await saveProduct(ctx.db, input, ctx.clock.now());
  } catch (err) {
    // The catalogue words its refusals for haul-admin ("the price must be …"): the same words, as a sentence.
    const why = (err as Error).message;
    throw badInput(`${why.charAt(0).toUpperCase()}${why.slice(1)}.`);
  }
  await recordAudit(ctx.db, { action: 'admin.product.saved', subjectId: actor.id, actorId: actor.id, ip: actor.ip, details: { product: row.id, title: row.title, grant: row.grant_spec, price: input.price, currency: row.currency } }, ctx.clock.now());
  return presentProduct(row);
}
