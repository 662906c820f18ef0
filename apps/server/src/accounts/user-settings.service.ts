/** Settings that follow a person between browsers: each value checked against its item's schema, then kept as JSON. */
import { Value } from '@sinclair/typebox/value';
import { USER_SETTING_ITEMS, USER_SETTING_SCHEMAS, type UserSettingItem } from '@haul/shared';
import type { AppContext } from '../context.js';
import { badInput } from '../http/errors.js';
import { toRfc3339 } from '../lib/time.js';

const isItem = (s: string): s is UserSettingItem => (USER_SETTING_ITEMS as string[]).includes(s);

export async function readSettings(ctx: AppContext, userId: string, names?: string) {
  const items = names ? names.split(',').map((s) => s.trim()).filter(Boolean) : [];
  const unknown = items.find((i) => !isItem(i));
  if (unknown) throw badInput(`There is no setting "${unknown}"; the settings are ${USER_SETTING_ITEMS.join(', ')}.`);
  let q = ctx.db.selectFrom('user_settings').selectAll().where('user_id', '=', userId);
  if (items.length) q = q.where('item', 'in', items);
  const rows = await q.orderBy('item').execute();
  return rows.filter((r) => isItem(r.item)).map((r) => ({ item: r.item as UserSettingItem, value: JSON.parse(r.value) as unknown, updated_at: toRfc3339(Number(r.updated_at)) }));
}

/** Writes every item or none: a value not of its item's shape is refused with where it is wrong. */
export async function saveSettings(ctx: AppContext, userId: string, writes: { item: UserSettingItem; value: unknown }[]) {
  if (!writes.length) throw badInput('Name the setting to save: `item` and `value`, or `items`.');
  for (const w of writes) {
    if (w.value === undefined) throw badInput(`The setting ${w.item} needs a value.`);
    const schema = USER_SETTING_SCHEMAS[w.item];
    if (!Value.Check(schema, w.value)) {
      const first = Value.Errors(schema, w.value).First();
      throw badInput(`The value of ${w.item} is not valid${first ? ` at "${first.path || '/'}": ${first.message}` : ''}.`);
    }
  }
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    for (const w of writes) {
      const value = JSON.stringify(w.value);
      await trx
        .insertInto('user_settings')
        .values({ user_id: userId, item: w.item, value, updated_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'item']).doUpdateSet({ value, updated_at: now }))
        .execute();
    }
  });
  return readSettings(ctx, userId, writes.map((w) => w.item).join(','));
}
