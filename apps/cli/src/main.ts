/** The haul command: files, uploads, downloads, cloud downloads and shares of a Haul server, from a terminal. */
import { Command, CommanderError, Option } from 'commander';
import type { Ctx, GlobalOptions } from './context.js';
import { EXIT } from './exit.js';
import { VERSION } from './version.js';

// Commands, the API client and what they use are imported when a command runs, not up front: loading them all took
// most of the start-up time of every command (and all of it for `haul --help`).
const commands = {
  account: () => import('./commands/account.js'),
  files: () => import('./commands/files.js'),
  get: () => import('./commands/get.js'),
  share: () => import('./commands/share.js'),
  tasks: () => import('./commands/tasks.js'),
  upload: () => import('./commands/upload.js'),
};

/** Prints a failure (on stderr; with --json, as the error object on stdout too) and answers its exit code. */
async function report(err: unknown, json: boolean, printedResult: boolean): Promise<number> {
  const { errorObject, exitCodeOf, messageOf } = await import('./output.js');
  process.stderr.write(`haul: ${messageOf(err)}\n`);
  // A result printed already (some items done, some failed) lists the failures itself: stdout stays one JSON value.
  if (json && !printedResult) process.stdout.write(`${JSON.stringify(errorObject(err), null, 2)}\n`);
  return exitCodeOf(err);
}

const EXIT_HELP = `
Paths name items in the drive from its top, like /Photos/2026/beach.jpg; an item's id works too.

Exit codes:
  0  done               4  not signed in: run \`haul login\`
  1  failed             5  server unreachable or busy: try again
  2  wrong usage        6  some items done, some failed
  3  not found          7  a quota or plan limit refused it
                        8  it exists already

Environment: HAUL_SERVER (the server, like --server), HAUL_CONFIG_DIR (where the session is kept).`;

export async function main(argv: string[]): Promise<number> {
  const program = new Command('haul')
    .description('Files, uploads, downloads, cloud downloads and shares of a Haul server.')
    .version(VERSION)
    .option('-s, --server <url>', 'the Haul server (default: the one you signed in to, or http://127.0.0.1:8080)')
    .option('--json', 'print results as JSON, for scripts')
    .addHelpText('after', EXIT_HELP)
    .showHelpAfterError('(run `haul --help` for usage)')
    .exitOverride();

  let code = EXIT.OK as number;
  const json = () => !!program.opts<GlobalOptions>().json;
  /** Runs a command's action with the context, turning failures into a message and an exit code. */
  const act =
    <A extends unknown[]>(fn: (ctx: Ctx, ...args: A) => Promise<void>) =>
    async (...args: A) => {
      let ctx: Ctx | undefined;
      try {
        ctx = (await import('./context.js')).makeContext(program.opts<GlobalOptions>());
        await fn(ctx, ...args);
      } catch (err) {
        code = await report(err, json(), !!ctx?.out.printed);
      }
    };

  program
    .command('login')
    .description('sign in (asks for the e-mail and password; in scripts use --email and --password-stdin)')
    .option('-e, --email <email>', 'the account e-mail')
    .option('--password-stdin', 'read the password from standard input')
    .option('--code <code>', 'the code from your authenticator app (or a recovery code), for two-factor sign-in')
    .option('--device', 'sign in with a code approved from a signed-in browser or phone (no password typed here)')
    .option('--name <name>', 'with --device: what this machine is called on the approval screen and in the devices list')
    .action(act(async (ctx, opts: { email?: string; passwordStdin?: boolean; code?: string; device?: boolean; name?: string }) => (await commands.account()).login(ctx, opts)));
  program.command('logout').description('sign out on this machine').action(act(async (ctx) => (await commands.account()).logout(ctx)));
  program.command('whoami').description('show who is signed in, and where').action(act(async (ctx) => (await commands.account()).whoami(ctx)));

  program
    .command('ls')
    .description('list a folder (the top of the drive when no path is given)')
    .argument('[path]', 'folder or file')
    .option('-l, --long', 'kind, size and modification time too')
    .action(act(async (ctx, path: string | undefined, opts: { long?: boolean }) => (await commands.files()).ls(ctx, path, opts)));
  program
    .command('mkdir')
    .description('make folders')
    .argument('<path...>', 'folders to make')
    .option('-p, --parents', 'make missing parents too, and accept folders that exist')
    .action(act(async (ctx, paths: string[], opts: { parents?: boolean }) => (await commands.files()).mkdir(ctx, paths, opts)));
  program
    .command('mv')
    .description('move items into a folder, or one item to a new name: haul mv SOURCE… DESTINATION')
    .argument('<paths...>', 'the items to move, then a folder (or a new path for a single item)')
    .action(act(async (ctx, paths: string[]) => (await commands.files()).mv(ctx, paths)));
  program
    .command('rm')
    .description('move items to the trash')
    .argument('<path...>', 'items to remove')
    .option('--permanent', 'delete for good instead (no undo)')
    .action(act(async (ctx, paths: string[], opts: { permanent?: boolean }) => (await commands.files()).rm(ctx, paths, opts)));

  program
    .command('upload')
    .description('upload files and folders; run it again to continue (what is there already is skipped), instant when the content is stored already')
    .argument('<path...>', 'local files and folders')
    .option('-t, --to <folder>', 'drive folder to upload into (made when missing)', '/')
    .addOption(
      new Option('--on-conflict <rule>', 'when a file of the same name but other content is there: skip it, rename (keep both: "name (1)") or overwrite (the old one goes to the trash)')
        .choices(['skip', 'rename', 'overwrite'])
        .default('skip'),
    )
    .action(act(async (ctx, paths: string[], opts: { to?: string; onConflict?: string }) => (await commands.upload()).upload(ctx, paths, opts)));
  program
    .command('get')
    .description('download a file or a folder; resumable (run it again to continue), verified against the content hash')
    .argument('<path>', 'drive file or folder, or its id')
    .option('-o, --output <path>', 'where to write it (default: its name, here)')
    .action(act(async (ctx, path: string, opts: { output?: string }) => (await commands.get()).get(ctx, path, opts)));

  program
    .command('add')
    .description('add cloud downloads: HTTP(S) links, magnet links or .torrent files')
    .argument('<source...>', 'links, magnets or .torrent files')
    .option('-t, --to <folder>', 'drive folder the downloads go to', '/')
    .option('-w, --watch', 'show progress until they end')
    .action(act(async (ctx, sources: string[], opts: { to?: string; watch?: boolean }) => (await commands.tasks()).add(ctx, sources, opts)));
  program
    .command('tasks')
    .description('list cloud downloads')
    .argument('[id...]', 'only these tasks')
    .option('-w, --watch', 'show progress until they end')
    .action(act(async (ctx, ids: string[], opts: { watch?: boolean }) => (await commands.tasks()).tasks(ctx, ids, opts)));

  program
    .command('share')
    .description('make a share link')
    .argument('<path...>', 'items to share')
    .addOption(new Option('-c, --code [code]', 'a pass code is needed to open it (made up unless given)'))
    .option('-d, --days <days>', 'days the link works: 1, 7, 14, 30, or -1 for never', '-1')
    .option('--title <title>', "the share's title")
    .action(act(async (ctx, paths: string[], opts: { code?: string | boolean; days?: string; title?: string }) => (await commands.share()).share(ctx, paths, opts)));

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end here too, as successes. Commander has printed its words on stderr already.
      if (err.exitCode === 0) return EXIT.OK;
      if (json() || argv.includes('--json')) {
        const words = err.message.replace(/^error: /, '');
        process.stdout.write(`${JSON.stringify({ error: 'invalid_argument', error_description: words }, null, 2)}\n`);
      }
      return EXIT.USAGE;
    }
    return report(err, json() || argv.includes('--json'), false);
  }
  return code;
}
