/** A throwaway PostgreSQL cluster (pg-cluster.mjs). */
export interface PgCluster {
  url: string;
  /** Stops the server, keeping its data, as a restart or a failover would. */
  pause(): void;
  /** Starts it again on the same port and data. */
  resume(): void;
  /** Stops it and removes its data. */
  stop(): void;
}
export declare function startPgCluster(): Promise<PgCluster>;
