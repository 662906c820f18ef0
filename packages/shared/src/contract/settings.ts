/**
 * User settings kept on the server (seed 000 §7 "GET and POST user settings (items list; body item and value)"): display
 * modes, search history and the like follow the person to another browser. Each item's value has a schema
 * (rules/user-settings.ts); the last write wins.
 */
import { Type } from '@sinclair/typebox';
import { USER_SETTING_ITEMS } from '../rules/user-settings.js';
import { route } from './define.js';
import { StringEnum, TimeString } from './schema-kit.js';

const tag = 'Accounts';
const Item = StringEnum(USER_SETTING_ITEMS, {
  description: "display_mode (sort, folders on top, list or grid: globally and per route, folder or search), search_history (the 3 latest terms), preview_bar_visible (shown or hidden: the viewer's strip of files), max_parallel_uploads (1 to 10, or null for the app's own).",
});
const Setting = Type.Object({
  item: Item,
  value: Type.Unknown({ description: "The item's value, of the item's shape." }),
  updated_at: TimeString('When it was last written.'),
});
const Answer = Type.Object({ settings: Type.Array(Setting, { description: 'The items asked for (every item kept when none were named) that were ever written.' }) });
const Write = Type.Object({ item: Item, value: Type.Unknown() });

export const settingsRoutes = {
  getUserSettings: route({
    method: 'GET',
    path: '/v1/user/settings',
    tag,
    summary: 'Your settings',
    description: 'The settings kept for your account: the items named (comma-separated), or all. An item never written is left out; the app then uses its own default.',
    auth: 'user',
    query: Type.Object({ items: Type.Optional(Type.String({ maxLength: 300, description: 'Comma-separated item names; all when absent.' })) }),
    response: Answer,
    errors: { invalid_argument: 'An unknown item name.' },
  }),
  saveUserSettings: route({
    method: 'POST',
    path: '/v1/user/settings',
    tag,
    summary: 'Save settings',
    description: 'Writes one item (`item` and `value`) or several (`items`); each value must have its item\'s shape, else nothing is written. Answers the items written.',
    auth: 'user',
    body: Type.Object({
      item: Type.Optional(Item),
      value: Type.Optional(Type.Unknown()),
      items: Type.Optional(Type.Array(Write, { minItems: 1, maxItems: 10 })),
    }),
    response: Answer,
    errors: { invalid_argument: 'No item given, an unknown item, or a value not of its shape (the description says where).' },
    example: { item: 'search_history', value: ['holiday', 'invoice'] },
  }),
};
