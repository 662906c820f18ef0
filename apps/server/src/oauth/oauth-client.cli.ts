/** `haul-admin oauth-client create|list|delete`: the operator registers the third-party apps that may ask people. */
import type { AppContext } from '../context.js';
import { createClient, deleteClient, listClients } from './oauth-clients.js';

export const OAUTH_CLIENT_USAGE = `  oauth-client create <name> --redirect-uri URI [--redirect-uri URI…] [--confidential]
                                                            register an app (a secret, shown once, for --confidential)
  oauth-client list                                         list registered apps
  oauth-client delete <client_id>                           remove an app; its tokens stop working at once`;

/** Runs one oauth-client subcommand; answers the exit code. */
export async function oauthClientCommand(ctx: AppContext, args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'create': {
      const name = rest[0];
      const redirectUris = rest.flatMap((a, i) => (a === '--redirect-uri' && rest[i + 1] ? [rest[i + 1]!] : []));
      if (!name || name.startsWith('--') || !redirectUris.length) throw new Error(`usage:\n${OAUTH_CLIENT_USAGE}`);
      const { client, secret } = await createClient(ctx, { name, redirectUris, confidential: rest.includes('--confidential') });
      console.log(`client_id: ${client.id}`);
      if (secret) console.log(`client_secret: ${secret}\n(shown once: only its hash is kept)`);
      console.log(`redirect URIs: ${client.redirectUris.join(' ')}`);
      return 0;
    }
    case 'list': {
      const clients = await listClients(ctx.db);
      if (!clients.length) console.log('no apps registered');
      for (const c of clients) {
        console.log(`${c.id}  ${c.name}  ${c.confidential ? 'confidential' : 'public'}  ${new Date(c.createdAt).toISOString()}  ${c.redirectUris.join(' ')}`);
      }
      return 0;
    }
    case 'delete': {
      if (!rest[0]) throw new Error(`usage:\n${OAUTH_CLIENT_USAGE}`);
      if (!(await deleteClient(ctx.db, rest[0]))) throw new Error(`no app with client_id ${rest[0]}`);
      console.log(`app ${rest[0]} deleted; its sessions and tokens ended`);
      return 0;
    }
    default:
      throw new Error(`usage:\n${OAUTH_CLIENT_USAGE}`);
  }
}
