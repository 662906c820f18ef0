/** RFC 8414 metadata: what a standard client library reads to configure itself from the server's address. */
import { CONTRACT as C, OAUTH_SCOPES } from '@haul/shared';

const CLIENT_AUTH = ['client_secret_basic', 'client_secret_post', 'none'];

/** The document for a server reached at `base` (no trailing slash); the issuer is that address itself. */
export function serverMetadata(base: string) {
  return {
    issuer: base,
    authorization_endpoint: `${base}/drive/authorize`,
    token_endpoint: `${base}${C.refreshToken.path}`,
    introspection_endpoint: `${base}${C.introspectToken.path}`,
    revocation_endpoint: `${base}${C.revokeToken.path}`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    scopes_supported: [...OAUTH_SCOPES],
    token_endpoint_auth_methods_supported: CLIENT_AUTH,
    // A public app introspects with its access token instead (RFC 7662 §2.1).
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH,
  };
}
