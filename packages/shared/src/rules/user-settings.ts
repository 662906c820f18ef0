/**
 * Settings that follow a person from browser to browser (seed 000 §3 "Local settings", §7 "user settings"): each item
 * has a schema, checked on the server before it is kept, so a broken client cannot store what another one cannot read.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { SORT_ORDERS } from '../constants.js';

/** A union of literals (not the contract's enum shortcut): the server checks these values with TypeBox's Value. */
const OneOf = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v))) as unknown as TSchema & { static: T[number] };

export const DisplayModeSchema = Type.Object({
  orderType: OneOf(SORT_ORDERS),
  pinFoldersTop: Type.Boolean(),
  viewType: OneOf(['list', 'grid'] as const),
  last_modified: Type.Integer({ minimum: 0 }),
});

/** Per-route, folder or search modes are trimmed to the 1000 newest above 2000 (seed 000 §9), so 2000 is the cap. */
export const DISPLAY_MODES_MAX = 2000;
export const SEARCH_HISTORY_SIZE = 3;

export const USER_SETTING_SCHEMAS = {
  display_mode: Type.Object({
    global: DisplayModeSchema,
    orderSettingGlobal: Type.Boolean(),
    viewSettingGlobal: Type.Boolean(),
    byKey: Type.Record(Type.String({ maxLength: 300 }), DisplayModeSchema, { maxProperties: DISPLAY_MODES_MAX }),
  }),
  search_history: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: SEARCH_HISTORY_SIZE }),
  preview_bar_visible: Type.Boolean(),
  /** Uploads at once (seed 000 §3 "maximum parallel uploads override"); null: the app's own number. */
  max_parallel_uploads: Type.Union([Type.Integer({ minimum: 1, maximum: 10 }), Type.Null()]),
  /** The beginner guide was finished or skipped: it does not start again by itself (seed 001 "once"). */
  beginner_guide_done: Type.Boolean(),
  /** The time (`at`) of the newest premium deduction the person has read (vip info `deductions`): older ones raise no notice. */
  premium_deduct_seen: Type.String({ maxLength: 40 }),
} satisfies Record<string, TSchema>;

export type UserSettingItem = keyof typeof USER_SETTING_SCHEMAS;
export const USER_SETTING_ITEMS = Object.keys(USER_SETTING_SCHEMAS) as UserSettingItem[];
export type UserSettingValue<K extends UserSettingItem> = Static<(typeof USER_SETTING_SCHEMAS)[K]>;
