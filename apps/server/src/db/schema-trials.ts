/** New accounts' premium trials: see the 0044 migration. */

/** An address (as the SHA-256 of its normal form) that had its trial; kept when the account is erased. */
export interface TrialsTable {
  email_hash: string;
  /** The premium days granted then. */
  days: number;
  created_at: number;
}
