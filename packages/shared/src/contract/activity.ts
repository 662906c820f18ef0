/**
 * Invitations (seed 000 §7, seed 001 §7 "activity"): each account's invite link, who joined with it, and the premium
 * days both sides earned. Rewards are granted when the invited account is made, never on request.
 */
import { Type, type Static } from '@sinclair/typebox';
import { route } from './define.js';
import { StringEnum, TimeString } from './schema-kit.js';

const tag = 'Activity';

/** Why an invitation earned nothing; '' when it was rewarded. */
export const INVITE_REWARD_REASONS = ['', 'rewards_off', 'invited_before', 'same_address', 'address_limit', 'monthly_limit'] as const;
export type InviteRewardReason = (typeof INVITE_REWARD_REASONS)[number];

export const InvitedSchema = Type.Object({
  name: Type.String({ description: 'The invited address, masked: an***@example.com.' }),
  joined_at: TimeString('When the invited account was made.'),
  rewarded: Type.Boolean(),
  reward_days: Type.Integer({ description: 'Premium days each side got; 0 when not rewarded.' }),
  reason: StringEnum(INVITE_REWARD_REASONS, {
    description:
      "Why it was not rewarded: rewards_off (the server gives none), invited_before (this address was rewarded under an earlier account), same_address (signed up from an address the inviter uses), address_limit (too many rewarded sign-ups from that address today), monthly_limit (the inviter's rewards for the month were used up); '' when rewarded.",
  }),
  account_deleted: Type.Boolean({ description: 'The invited account was deleted since; the invitation still counts.' }),
});
export type Invited = Static<typeof InvitedSchema>;

export const InviteInfoSchema = Type.Object({
  invitation_code: Type.String({ description: "The account's invite code: the same every time." }),
  link: Type.String({ description: 'The link to share: the sign-in page with `invitation-code`.' }),
  reward_days: Type.Integer({ description: 'Premium days the inviter and the invited each get per rewarded invitation; 0 when this server gives none.' }),
  monthly_limit: Type.Integer({ description: 'Rewarded invitations per calendar month; 0: no limit.' }),
  rewards_left: Type.Integer({ description: 'Rewarded invitations left this month; -1 when there is no limit.' }),
  resets_at: TimeString('When the month of the limit ends.'),
  invited: Type.Array(InvitedSchema, { description: 'Who joined with this link, newest first (the latest 100).' }),
  total_invited: Type.Integer(),
  total_rewarded: Type.Integer(),
  days_earned: Type.Integer({ description: 'Premium days this account earned by inviting.' }),
});
export type InviteInfo = Static<typeof InviteInfoSchema>;

export const InviteRewardSchema = Type.Object({
  role: StringEnum(['inviter', 'invitee'] as const, { description: 'inviter: someone joined with your link; invitee: you joined with one.' }),
  days: Type.Integer(),
  granted_at: TimeString(),
  ends_at: TimeString('When this reward\'s premium time ends (it chains after premium you had).'),
});

const infoDescription =
  "The signed-in account's invite code and link (made on first ask), what each side gets, how many rewards are left this month, and who joined with the link.";

export const activityRoutes = {
  inviteInfo: route({
    method: 'GET',
    path: '/vip/v1/activity/invite',
    tag,
    summary: 'Invite link and invited people',
    description: infoDescription,
    auth: 'user',
    response: InviteInfoSchema,
    errors: {},
  }),
  invite: route({
    method: 'POST',
    path: '/vip/v1/activity/invite',
    tag,
    summary: 'Invite link (seed form)',
    description: `${infoDescription} The seed's call; its fields say where the app asked from and are ignored.`,
    auth: 'user',
    body: Type.Object({
      from: Type.Optional(Type.String({ maxLength: 64, description: 'Ignored (web).' })),
      tf: Type.Optional(Type.String({ maxLength: 64, description: 'Ignored.' })),
      rf: Type.Optional(Type.String({ maxLength: 64, description: 'Ignored.' })),
    }),
    response: InviteInfoSchema,
    errors: {},
    example: { from: 'web' },
  }),
  rewardVip: route({
    method: 'POST',
    path: '/vip/v1/activity/rewardVip',
    tag,
    summary: 'Invitation rewards earned',
    description:
      'The premium days this account earned from invitations so far, on either side. Rewards are granted by themselves when an invited account is made, so this only reports: it grants nothing.',
    auth: 'user',
    body: Type.Object({
      type: Type.Optional(Type.String({ maxLength: 64, description: 'Ignored.' })),
      data: Type.Optional(Type.String({ maxLength: 500, description: 'Ignored.' })),
    }),
    response: Type.Object({ rewards: Type.Array(InviteRewardSchema, { description: 'Newest first.' }), total_days: Type.Integer() }),
    errors: {},
    example: { type: 'invite' },
  }),
};
