import type { Kysely } from 'kysely';

/** Settings that follow a person between browsers: one JSON value per (account, item), the last write winning. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_settings')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('item', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_settings_pk', ['user_id', 'item'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
