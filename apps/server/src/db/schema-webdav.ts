/** Tables of WebDAV: see the 0021 migration. */
import type { Generated } from 'kysely';

export interface AppPasswordsTable {
  id: string;
  user_id: string;
  name: string;
  /** SHA-256 (hex) of the password; the password is shown once, when made. */
  secret_hash: string;
  created_at: number;
  last_used_at: number | null;
  /** The session it was made in: ending that session from elsewhere revokes it. */
  session_id: Generated<string | null>;
}

/** A dead property of a file or folder, set with PROPPATCH. */
export interface DavPropsTable {
  file_id: string;
  user_id: string;
  ns: string;
  name: string;
  /** The whole property element as XML, with its namespaces declared. */
  value: string;
  /** UTF-8 bytes of ns, name and value: what the limits of prop-limits.ts count. */
  size: Generated<number>;
}

export interface DavLocksTable {
  /** The lock token, `urn:uuid:…`. */
  token: string;
  user_id: string;
  /** The locked path from the top of the drive ("/a/b", "" for the top). */
  path: string;
  /** '0' or 'infinity'. */
  depth: string;
  /** 'exclusive' or 'shared'. */
  scope: string;
  /** The client's DAV:owner element as XML ('' when none). */
  owner: string;
  timeout_s: number;
  expires_at: number;
  created_at: number;
}

/** SHA-1 of stored content by its content hash (BLAKE3), for clients that compare checksums: see the 0037 migration. */
export interface DavChecksumsTable {
  hash: string;
  /** Lowercase hex. */
  sha1: string;
  created_at: number;
}
