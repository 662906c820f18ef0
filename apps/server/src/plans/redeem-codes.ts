/**
 * Redeem codes: made by the operator (`haul-admin codes create`), shown once, kept as hashes. Redeeming grants the
 * code's spec once per account, at most `max_uses` times in all: the use is counted with a conditional update in the
 * transaction that grants, so two accounts racing for a code's last use cannot both win.
 */
import { randomInt } from 'node:crypto';
import { formatGrantSpec, parseGrantSpec, type GrantItem } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { HttpError, badInput } from '../http/errors.js';
import { newId, sha256Hex } from '../lib/ids.js';
import { clientKey, refundAttempt, takeAttempt, tooManyAttempts, type AttemptPolicy } from '../limits/attempt-limiter.js';
import { applyGrant } from './grants.js';
import { grantItems } from './vip-info.js';

/** No 0/O, 1/I/L: codes are read off paper and typed. */
export const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
/** 16 characters of 31: 79 bits, past guessing even without the attempt limit. */
const CODE_CHARS = 16;
const HOUR = 3600_000;
/** Wrong codes per account: a person mistyping gets several, a script one a minute, then less. */
const TRIES: AttemptPolicy = { free: 10, baseDelayMs: 60_000, maxDelayMs: HOUR, forgetMs: HOUR };
/** Wrong codes per network, across accounts (many accounts made to guess): more room, for households and offices. */
const TRIES_PER_CLIENT: AttemptPolicy = { free: 30, baseDelayMs: 60_000, maxDelayMs: HOUR, forgetMs: HOUR };

/** What a code is compared in: case, spaces and dashes dropped. */
export function normalCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

function newCode(): string {
  let s = '';
  for (let i = 0; i < CODE_CHARS; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s.match(/.{4}/g)!.join('-');
}

export interface NewCodes {
  spec: string;
  count: number;
  maxUses?: number;
  expiresAt?: number | null;
  note?: string;
}

/** Makes `count` codes granting `spec`; answers them, the only time they are seen. */
export async function createCodes(db: Db, input: NewCodes, now: number): Promise<string[]> {
  return (await createCodeRows(db, input, now)).codes;
}

/** As createCodes, with the rows' ids and the spec as kept; inside the caller's transaction when `db` is one. */
export async function createCodeRows(db: Db, input: NewCodes, now: number): Promise<{ codes: string[]; ids: string[]; spec: string }> {
  const spec = formatGrantSpec(parseGrantSpec(input.spec));
  const codes = Array.from({ length: input.count }, newCode);
  const ids = codes.map(() => newId());
  const insert = async (trx: Db) => {
    for (const [i, code] of codes.entries()) {
      await trx
        .insertInto('redeem_codes')
        .values({
          id: ids[i]!,
          code_hash: sha256Hex(normalCode(code)),
          grant_spec: spec,
          note: input.note ?? '',
          max_uses: input.maxUses ?? 1,
          used_count: 0,
          expires_at: input.expiresAt ?? null,
          created_at: now,
          revoked_at: null,
        })
        .execute();
    }
  };
  if (db.isTransaction) await insert(db);
  else await db.transaction().execute(insert);
  return { codes, ids, spec };
}

export async function redeemCode(ctx: AppContext, userId: string, input: string, ip: string): Promise<GrantItem[]> {
  const code = normalCode(input);
  if (!/^[0-9A-Z]{8,32}$/.test(code)) throw badInput('Please enter the code as printed, like HAUL-7K2M-Q9TX-4WPB.');
  const now = ctx.clock.now();
  const keys: [string, AttemptPolicy][] = [
    [`redeem|${userId}`, TRIES],
    [`redeem|${clientKey(ip)}`, TRIES_PER_CLIENT],
  ];
  const wait = await takeAttempt(ctx.db, now, keys);
  if (wait > 0) throw tooManyAttempts(wait, 'Too many codes tried.');
  const row = await ctx.db.selectFrom('redeem_codes').selectAll().where('code_hash', '=', sha256Hex(code)).executeTakeFirst();
  // A revoked code answers as an expired one: to the person both simply no longer work.
  if (!row || row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= now)) throw new HttpError(404, 'not_found', 'This code does not exist or has expired. Check it and try again.');
  // A real code is no guess, whatever comes of it: only wrong codes count.
  for (const [key, policy] of keys) await refundAttempt(ctx.db, key, policy);
  await ctx.db.transaction().execute(async (trx) => {
    const mine = await trx.selectFrom('redeem_code_uses').select('used_at').where('code_id', '=', row.id).where('user_id', '=', userId).executeTakeFirst();
    if (mine) throw new HttpError(409, 'already_exists', 'You have redeemed this code already.');
    const taken = await trx
      .updateTable('redeem_codes')
      .set((eb) => ({ used_count: eb('used_count', '+', 1) }))
      .where('id', '=', row.id)
      .where('used_count', '<', row.max_uses)
      // Revoked since it was read: the revocation wins the race.
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 0) throw new HttpError(409, 'failed_precondition', 'This code has been used up.');
    try {
      await trx.insertInto('redeem_code_uses').values({ code_id: row.id, user_id: userId, used_at: now }).execute();
    } catch (err) {
      // This account's racing request used it first: this transaction rolls back, use count included.
      if (isUniqueViolation(err)) throw new HttpError(409, 'already_exists', 'You have redeemed this code already.');
      throw err;
    }
    await applyGrant(trx, userId, row.grant_spec, { source: 'code', sourceId: row.id }, now);
  });
  return grantItems(row.grant_spec);
}
