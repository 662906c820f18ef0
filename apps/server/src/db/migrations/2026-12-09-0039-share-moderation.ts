import type { Kysely } from 'kysely';

/**
 * Moderating shares: a share's status may also be AUDITING, PROHIBITED or SENSITIVE_RESOURCE, set by an operator
 * with a reason its owner reads (`moderation_reason`); a save limit its owner (or an operator) sets
 * (`restore_limit`, 0 for none: past it, saving answers MAX_RESTORE_COUNT); and the operator's blocked words, which a
 * share's title or phrase may not hold (SENSITIVE_WORD).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('shares').addColumn('restore_limit', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('shares').addColumn('moderation_reason', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema
    .createTable('blocked_words')
    .addColumn('word', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
