/**
 * Invitations in the operator's console (`/admin/v1/invitations`): who invited whom and when, what each side was given
 * and, when nothing, why; every account's or one inviter's, newest first.
 */
import { Type, type Static } from '@sinclair/typebox';
import { INVITE_REWARD_REASONS } from './activity.js';
import { route } from './define.js';
import { NullableObject, StringEnum, TimeString } from './schema-kit.js';

const tag = 'Administration';

/** The account; null once it was deleted (the invitation stays, so it still counts). */
const AccountRef = NullableObject(Type.Object({ id: Type.String(), email: Type.String() }, { description: 'The account; null once it was deleted.' }));

export const AdminInvitationSchema = Type.Object({
  id: Type.String(),
  created_time: TimeString('When the invited person signed up.'),
  inviter: AccountRef,
  invitee: AccountRef,
  invitee_label: Type.String({ description: 'The invited address as the inviter sees it (masked); kept after deletion.' }),
  rewarded: Type.Boolean(),
  reward_days: Type.Integer({ description: 'Premium days each side got; 0 when not rewarded.' }),
  reason: StringEnum(INVITE_REWARD_REASONS, { description: "Why it was not rewarded (as the inviter's page says); '' when rewarded." }),
});
export type AdminInvitation = Static<typeof AdminInvitationSchema>;

export const adminInvitationsRoutes = {
  adminListInvitations: route({
    method: 'GET',
    path: '/admin/v1/invitations',
    tag,
    summary: 'Invitations, newest first',
    description:
      'Every sign-up made with an invitation code, a page at a time, or only those of one inviter (`user_id`); with the totals: invitations, rewarded ones and the premium days given to each side.',
    auth: 'admin',
    query: Type.Object({
      user_id: Type.Optional(Type.String({ maxLength: 100, description: "Only this account's invitations (as the inviter)." })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
      page_token: Type.Optional(Type.String({ maxLength: 2000 })),
    }),
    response: Type.Object({
      invitations: Type.Array(AdminInvitationSchema),
      next_page_token: Type.String({ description: "'' on the last page." }),
      total: Type.Integer({ description: 'Invitations in the listing (all pages).' }),
      rewarded: Type.Integer({ description: 'Of them, rewarded.' }),
      reward_days: Type.Integer({ description: 'Premium days given to each side, all together.' }),
    }),
    errors: { invalid_argument: 'The page token belongs to another listing or is damaged.' },
  }),
};
