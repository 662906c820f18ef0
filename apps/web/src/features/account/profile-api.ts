/** The profile's calls: the built-in avatars, and changing the name or the avatar. */
import { haul } from '../../lib/api-client';

export const listAvatars = async () => (await haul.call('listAvatars')).avatars;

export const updateProfile = (change: { name?: string; picture?: string }) => haul.call('updateProfile', { body: change });
