/**
 * Run-time settings: a few of the environment's settings an operator changes from the console without a restart.
 * The changed ones are kept as one JSON row (system_kv `run_time_settings`); each process reads that row before every
 * request (on routes behind a token, in the same query as the token's session: app.ts) and at every
 * job run, and lays what it holds over its own environment values in `ctx.config`, so the code
 * that reads `ctx.config` needs no change and every process follows a change from its next request on. The row is a
 * primary-key read of a few hundred bytes; a process applies it only when its text changed.
 */
import { Value } from '@sinclair/typebox/value';
import { REGISTRATION_MODES, RunTimeSettingsSchema, type RunTimeSettingName, type RunTimeSettings } from '@haul/shared';
import type { Config } from '../config.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import { badInput } from '../http/errors.js';
import { recordAudit } from '../audit/audit.repository.js';

const KEY = 'run_time_settings';

/** Each setting's field in the server's configuration. */
const FIELDS = {
  site_name: 'siteName',
  registration: 'registration',
  require_password: 'requirePassword',
  default_storage_bytes: 'defaultQuotaBytes',
  trash_retention_days: 'trashRetentionDays',
  free_daily_cloud_downloads: 'dailyTaskLimit',
  premium_daily_cloud_downloads: 'premiumDailyTaskLimit',
  free_cloud_download_max_bytes: 'offlineMaxTaskBytes',
  free_monthly_upload_bytes: 'monthlyUploadBytes',
  free_monthly_cloud_download_bytes: 'monthlyCloudDownloadBytes',
  free_monthly_download_bytes: 'monthlyDownloadBytes',
  free_daily_download_bytes: 'dailyDownloadBytes',
  free_max_resolution: 'freeMaxResolution',
  webdav_premium_only: 'webdavPremiumOnly',
  decompression_premium_only: 'decompressPremiumOnly',
  invite_reward_days: 'inviteRewardDays',
  invite_max_rewards: 'inviteMaxRewards',
  trial_days: 'trialDays',
} as const satisfies Record<RunTimeSettingName, keyof Config>;
const NAMES = Object.keys(FIELDS) as RunTimeSettingName[];
type Stored = Partial<RunTimeSettings>;

/** Per configuration object: the row's text last applied, and the environment's values from before the first. */
const applied = new WeakMap<Config, { raw: string | null; env: RunTimeSettings }>();

const settingsOf = (config: Config): RunTimeSettings =>
  Object.fromEntries(NAMES.map((n) => [n, config[FIELDS[n]]])) as RunTimeSettings;

/** The environment's values: those in force before a stored change was first applied. */
const envOf = (config: Config): RunTimeSettings => applied.get(config)?.env ?? settingsOf(config);

/** Whether `v` is a value setting `n` takes (the registration's enum is a plain JSON schema TypeBox cannot check). */
const fits = (n: RunTimeSettingName, v: unknown): boolean =>
  n === 'registration' ? (REGISTRATION_MODES as readonly unknown[]).includes(v) : Value.Check(RunTimeSettingsSchema.properties[n], v);

/** What a stored row holds, each value checked again (a row from an older or newer version keeps what still fits). */
function parseStored(raw: string | null): Stored {
  if (!raw) return {};
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return {};
  }
  const out: Record<string, unknown> = {};
  for (const n of NAMES) {
    const v = (data as Record<string, unknown>)?.[n];
    if (v !== undefined && fits(n, v)) out[n] = v;
  }
  return out as Stored;
}

async function readRow(db: Db): Promise<string | null> {
  const row = await db.selectFrom('system_kv').select('value').where('key', '=', KEY).executeTakeFirst();
  return row?.value ?? null;
}

function apply(config: Config, raw: string | null): void {
  const env = envOf(config);
  const effective = { ...env, ...parseStored(raw) };
  for (const n of NAMES) (config as unknown as Record<string, unknown>)[FIELDS[n]] = effective[n];
  applied.set(config, { raw, env });
}

/** Lays the stored settings over `ctx.config` when the row changed since this process last looked. */
export async function refreshRunTimeSettings(ctx: Pick<AppContext, 'db' | 'config'>): Promise<void> {
  applyRunTimeSettingsRow(ctx.config, await readRow(ctx.db));
}

/** The row's key, for a query that reads it beside other things (with the token's session: app.ts). */
export const RUN_TIME_SETTINGS_KEY = KEY;

/** Lays a freshly read row's text (null: no row) over `config` when it changed since this process last applied one. */
export function applyRunTimeSettingsRow(config: Config, raw: string | null): void {
  // Nothing stored and nothing applied yet: the environment stands (and a test may still set ctx.config itself).
  if (raw === (applied.get(config)?.raw ?? null)) return;
  apply(config, raw);
}

/** The console's view: values in force, the environment's, and the names changed here. */
export async function runTimeSettings(ctx: Pick<AppContext, 'db' | 'config'>) {
  await refreshRunTimeSettings(ctx);
  const stored = parseStored(applied.get(ctx.config)?.raw ?? null);
  return { settings: settingsOf(ctx.config), defaults: envOf(ctx.config), changed: NAMES.filter((n) => n in stored) };
}

/** Changes the given settings (null: back to the environment's value), records what changed, and applies it here. */
export async function updateRunTimeSettings(ctx: AppContext, actor: { id: string; ip: string }, patch: Record<string, unknown>) {
  const unknown = Object.keys(patch).filter((k) => !(k in FIELDS));
  if (unknown.length) throw badInput(`Unknown setting: ${unknown.join(', ')}.`);
  if (!Object.keys(patch).length) throw badInput('Give at least one setting to change.');
  const env = envOf(ctx.config);
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  await ctx.db.transaction().execute(async (trx) => {
    const stored: Record<string, unknown> = parseStored(await readRow(trx));
    for (const [n, v] of Object.entries(patch) as [RunTimeSettingName, unknown][]) {
      const before = stored[n] ?? env[n];
      if (v === null) delete stored[n];
      else stored[n] = v;
      const after = stored[n] ?? env[n];
      if (after !== before) changes[n] = { from: before, to: after };
    }
    const value = JSON.stringify(stored);
    await trx.insertInto('system_kv').values({ key: KEY, value }).onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
    if (Object.keys(changes).length) {
      await recordAudit(trx, { action: 'admin.settings.changed', subjectId: actor.id, actorId: actor.id, ip: actor.ip, details: changes }, ctx.clock.now());
    }
  });
  return runTimeSettings(ctx);
}
