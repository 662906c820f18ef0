/**
 * The profile (seed 001 "set user profile", page /account/basic): the display name and a built-in avatar. Both fields
 * are checked before either is written, so a refused one changes nothing.
 */
import { AVATAR_IDS, DISPLAY_NAME_MAX_LENGTH, avatarPath, displayNameProblem, type UserInfo } from '@haul/shared';
import type { Updateable } from 'kysely';
import type { AppContext } from '../context.js';
import type { UsersTable } from '../db/schema.js';
import { badInput } from '../http/errors.js';
import { loadUserInfo } from './user-info.js';

const NAME_PROBLEMS = {
  empty: 'The name cannot be empty.',
  too_long: `The name must have at most ${DISPLAY_NAME_MAX_LENGTH} characters.`,
  control: 'The name cannot hold control characters or line breaks.',
} as const;

/** The built-in avatars, as GET /v1/user/avatars answers them. */
export const listAvatars = () => ({ avatars: AVATAR_IDS.map((id) => ({ id, url: avatarPath(id) })) });

export async function updateProfile(ctx: AppContext, userId: string, input: { name?: string; picture?: string }): Promise<UserInfo> {
  const change: Updateable<UsersTable> = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    const problem = displayNameProblem(name);
    if (problem) throw badInput(NAME_PROBLEMS[problem]);
    change.name = name;
  }
  if (input.picture !== undefined) {
    // Only ids of pictures we ship: never an address to fetch or markup to serve.
    if (input.picture !== '' && !AVATAR_IDS.includes(input.picture)) throw badInput('The picture must be one of the built-in avatars (GET /v1/user/avatars), or "" for none.');
    change.picture = input.picture || null;
  }
  if (!Object.keys(change).length) throw badInput('Send a name or a picture to change.');
  await ctx.db.updateTable('users').set(change).where('id', '=', userId).where('deleted_at', 'is', null).execute();
  return loadUserInfo(ctx, userId);
}
