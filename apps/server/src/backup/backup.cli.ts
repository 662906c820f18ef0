/** `haul-admin backup` and `haul-admin restore`: arguments, output and exit codes (0 done, 1 failed, 2 usage). */
import { loadConfig } from '../config.js';
import { runBackup } from './backup.js';
import { runRestore } from './restore.js';

export const BACKUP_USAGE = `  backup <dir>                                              copy the database (a consistent snapshot, while Haul runs) and
                                                            its blobs into <dir>; into the same <dir> again, only new blobs
                                                            are copied and nothing is deleted (PostgreSQL: runs pg_dump)
  restore <dir> [--verify] [--allow-missing]                put a backup in place on a fresh install (no account yet), with
                                                            Haul stopped; checks every blob's size (--verify: its BLAKE3 too)`;

/** Runs `backup <dir>` or `restore <dir> [--verify] [--allow-missing]`; answers the exit code. */
export async function backupCommand(command: 'backup' | 'restore', args: string[]): Promise<number> {
  const flags = args.filter((a) => a.startsWith('--'));
  const [dir, ...rest] = args.filter((a) => !a.startsWith('--'));
  const known = command === 'restore' ? ['--verify', '--allow-missing'] : [];
  const unknown = flags.filter((f) => !known.includes(f));
  if (!dir || rest.length || unknown.length) {
    console.error(`${unknown.length ? `haul-admin: unknown option ${unknown[0]}\n` : ''}usage:\n${BACKUP_USAGE}`);
    return 2;
  }
  const log = (line: string) => console.log(line);
  try {
    const config = loadConfig();
    if (command === 'backup') {
      const { manifest, summary } = await runBackup(config, dir, log);
      for (const line of summary) (line.startsWith('ERROR') ? console.error : console.log)(line);
      return manifest.complete ? 0 : 1;
    }
    const { ok, summary } = await runRestore(config, dir, { verify: flags.includes('--verify'), allowMissing: flags.includes('--allow-missing'), log });
    for (const line of summary) (line.startsWith('ERROR') ? console.error : console.log)(line);
    return ok ? 0 : 1;
  } catch (err) {
    console.error(`haul-admin ${command}: ${(err as Error).message}`);
    return 1;
  }
}
