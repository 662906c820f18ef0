/** The profile (/account/basic): the display name and a built-in avatar, and the avatars to choose from. */
import { Type } from '@sinclair/typebox';
import { UserInfoSchema } from '../entities.js';
import { DISPLAY_NAME_MAX_LENGTH } from '../rules/profile.js';
import { route } from './define.js';

const tag = 'Accounts';

export const AvatarSchema = Type.Object({
  id: Type.String({ description: 'Send it as `picture` to PATCH /v1/user/profile.' }),
  url: Type.String({ description: 'The picture: a same-origin path of an SVG the web app ships.' }),
});

export const profileRoutes = {
  listAvatars: route({
    method: 'GET',
    path: '/v1/user/avatars',
    tag,
    summary: 'Avatars to choose from',
    description: 'The built-in avatars an account may take as its picture. Pictures are chosen from these only: the server never fetches or serves a picture a user sends.',
    auth: 'user',
    response: Type.Object({ avatars: Type.Array(AvatarSchema) }),
    errors: {},
  }),
  updateProfile: route({
    method: 'PATCH',
    path: '/v1/user/profile',
    tag,
    summary: 'Change the name or the avatar',
    description: `Changes what is given: \`name\`, the display name (trimmed; 1 to ${DISPLAY_NAME_MAX_LENGTH} characters, no control characters or line breaks), and \`picture\`, the id of a built-in avatar (GET /v1/user/avatars) or "" for none. A refused field changes nothing, the other field included. Answers the account as it is now.`,
    auth: 'user',
    body: Type.Object({
      name: Type.Optional(Type.String({ maxLength: 1000, description: 'The new display name.' })),
      picture: Type.Optional(Type.String({ maxLength: 100, description: 'An avatar id such as "avatar:3", or "" to have none.' })),
    }),
    response: UserInfoSchema,
    errors: {
      invalid_argument: 'Nothing to change came, the name is empty, too long or holds control characters, or the picture is not a built-in avatar.',
      file_not_found: 'The account was deleted while the request ran.',
    },
    example: { name: 'Ada Lovelace', picture: 'avatar:3' },
  }),
};
