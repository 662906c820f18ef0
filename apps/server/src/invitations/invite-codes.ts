/**
 * Each account's invite code: 8 characters of the redeem codes' alphabet (39 bits), made on first ask and the same
 * ever after, so a link shared once keeps working. A code only ever leads to a reward, never into an account, and
 * sign-ups are limited per network, so 39 bits are plenty against guessing.
 */
import { randomInt } from 'node:crypto';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { ALPHABET, normalCode } from '../plans/redeem-codes.js';

const CODE_CHARS = 8;
const CODE_SHAPE = new RegExp(`^[${ALPHABET}]{${CODE_CHARS}}$`);

function newInviteCode(): string {
  let s = '';
  for (let i = 0; i < CODE_CHARS; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}

/** The account's invite code, made now when it has none (two first asks at once agree on one). */
export async function inviteCodeOf(db: Db, userId: string, now: number): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const row = await db.selectFrom('invite_codes').select('code').where('user_id', '=', userId).executeTakeFirst();
    if (row) return row.code;
    try {
      await db.insertInto('invite_codes').values({ user_id: userId, code: newInviteCode(), created_at: now }).onConflict((oc) => oc.column('user_id').doNothing()).execute();
    } catch (err) {
      // Another account drew the same code: draw again.
      if (!isUniqueViolation(err) || attempt >= 5) throw err;
    }
  }
}

/** The live, enabled account a typed code belongs to; undefined for anything else (a stale or mistyped link). */
export async function findInviter(db: Db, input: string): Promise<{ id: string } | undefined> {
  const code = normalCode(input);
  if (!CODE_SHAPE.test(code)) return undefined;
  return db
    .selectFrom('invite_codes')
    .innerJoin('users', 'users.id', 'invite_codes.user_id')
    .select('users.id')
    .where('invite_codes.code', '=', code)
    .where('users.deleted_at', 'is', null)
    .where('users.disabled_at', 'is', null)
    .executeTakeFirst();
}
