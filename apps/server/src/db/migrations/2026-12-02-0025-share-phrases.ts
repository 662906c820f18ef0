import type { Kysely } from 'kysely';

/**
 * A share's phrase: words its owner chose that a person can type instead of the link (GET share/code). Unique among
 * the shares that hold one; a cancelled share gives its phrase back.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('shares').addColumn('phrase', 'text').execute();
  await db.schema.createIndex('shares_phrase').on('shares').column('phrase').unique().execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
