/** Invitations through the contract: the account's invite link and who joined (the seed's POST), and rewards earned. */
import { haul } from '../../lib/api-client';

export const INVITE_KEY = ['invite'] as const;

export const inviteInfo = () => haul.call('invite', { body: { from: 'web' } });
export const inviteRewards = () => haul.call('rewardVip', { body: { type: 'invite' } });
