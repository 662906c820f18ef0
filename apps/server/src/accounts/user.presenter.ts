/** The user info the clients read; the password hash never leaves through here. */
import { avatarPath, type UserInfo } from '@haul/shared';
import type { UserRow } from '../db/schema.js';
import { toRfc3339 } from '../lib/time.js';
import { hasPassword } from '../providers/passwordless.js';
import type { BeginnerFlags } from './beginner-flags.js';

export function isPremium(user: UserRow, now: number): boolean {
  return user.premium_expire !== null && user.premium_expire > now;
}

/** A sign-in provider connected to the account, named as the operator names it now. */
export interface ConnectedProvider {
  id: string;
  name: string;
}

/** Seed 001: the beginner guide is for an account's first 7 days. */
const GUIDE_MS = 7 * 24 * 3600_000;

/**
 * `guide`: the server offers the beginner guide (HAUL_BEGINNER_GUIDE); `flags`: first_login and beginner task rights
 * (beginner-flags.ts); `requirePassword`: the operator asks every account for a password (HAUL_REQUIRE_PASSWORD).
 * Answers other than GET me may leave them off.
 */
export function presentUser(
  user: UserRow,
  now: number,
  providers: ConnectedProvider[],
  guide = false,
  flags: BeginnerFlags = { first_login: false, has_beginner_task_rights: false },
  requirePassword = false,
): UserInfo {
  const premium = isPremium(user, now);
  return {
    sub: user.id,
    name: user.name,
    email: user.email,
    phone_number: user.phone_number ?? '',
    picture: avatarPath(user.picture),
    created_at: toRfc3339(user.created_at),
    password_updated_at: toRfc3339(user.password_updated_at),
    status: 'ACTIVE',
    vip_status: premium ? 'ok' : 'none',
    premium,
    expire: premium ? toRfc3339(user.premium_expire) : '',
    providers,
    has_set_password: hasPassword(user.password_hash),
    required_set_password: requirePassword && !hasPassword(user.password_hash),
    is_admin: user.is_admin === 1,
    in_beginner_guide: guide && now - user.created_at < GUIDE_MS,
    first_login: flags.first_login,
    has_beginner_task_rights: flags.has_beginner_task_rights,
  };
}
