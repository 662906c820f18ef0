/**
 * Where the command line keeps its server address and session: $HAUL_CONFIG_DIR, else $XDG_CONFIG_HOME/haul, else
 * ~/.config/haul; config.json, readable by its owner only (it holds a refresh token). Written whole, then renamed,
 * so a killed process never leaves half a file.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Session, SessionStore } from '@haul/client';

export interface CliConfig {
  server?: string;
  email?: string;
  session?: Session | null;
}

export const DEFAULT_SERVER = 'http://127.0.0.1:8080';

export function configDir(): string {
  return process.env.HAUL_CONFIG_DIR || join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'haul');
}

const configFile = () => join(configDir(), 'config.json');

export function readConfig(): CliConfig {
  try {
    return JSON.parse(readFileSync(configFile(), 'utf8')) as CliConfig;
  } catch {
    return {};
  }
}

export function writeConfig(change: Partial<CliConfig>): void {
  const dir = configDir();
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const next = { ...readConfig(), ...change };
  const tmp = `${configFile()}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, configFile());
}

/** The session kept in the config file: read fresh each time, so two commands at once share rotated tokens. */
export const fileSessionStore: SessionStore = {
  load: () => readConfig().session ?? null,
  save: (session) => writeConfig({ session }),
};

/** The server to talk to: --server, then $HAUL_SERVER, then the one signed in to, then the local default. */
export function serverUrl(flag?: string): string {
  return (flag || process.env.HAUL_SERVER || readConfig().server || DEFAULT_SERVER).replace(/\/+$/, '');
}
