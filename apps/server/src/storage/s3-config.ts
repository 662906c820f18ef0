/** Where blobs live: HAUL_BLOB_STORE=local (the data folder) or s3 (an S3-compatible bucket, HAUL_S3_*). */

export interface S3Config {
  /** An S3-compatible server's address (MinIO, Ceph, Swift, R2…); null: AWS itself, found from the region. */
  endpoint: string | null;
  bucket: string;
  region: string;
  /** Both set, or both null: then the AWS SDK's usual chain (AWS_* variables, profiles, instance roles) decides. */
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** `https://host/bucket/key` rather than `https://bucket.host/key`; most servers other than AWS want it. */
  forcePathStyle: boolean;
  /** Downloads answer 302 to a short-lived presigned GET instead of streaming through Haul. */
  presignedDownloads: boolean;
}

export interface BlobStoreConfig {
  blobStore: 'local' | 's3';
  /** Set exactly when blobStore is s3. */
  s3: S3Config | null;
}

/** S3 bucket names as AWS accepts them today (3–63 of a-z 0-9 . -, starting and ending with a letter or digit). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Reads HAUL_BLOB_STORE and HAUL_S3_*; anything missing or malformed stops the boot with the variable's name. */
export function blobStoreConfig(get: (k: string) => string | undefined, bool: (v: string | undefined, fallback: boolean) => boolean): BlobStoreConfig {
  const kind = (get('HAUL_BLOB_STORE') || 'local').toLowerCase();
  if (kind === 'local') return { blobStore: 'local', s3: null };
  if (kind !== 's3') throw new Error(`HAUL_BLOB_STORE must be local or s3, got "${kind}"`);
  const endpoint = get('HAUL_S3_ENDPOINT') || null;
  if (endpoint && (!/^https?:\/\/[^/]/.test(endpoint) || !URL.canParse(endpoint))) {
    throw new Error(`HAUL_S3_ENDPOINT must be an http(s) address such as https://s3.example.com, got "${endpoint}"`);
  }
  const bucket = get('HAUL_S3_BUCKET') ?? '';
  if (!bucket) throw new Error('HAUL_BLOB_STORE=s3 needs HAUL_S3_BUCKET (the bucket Haul keeps its blobs in)');
  if (!BUCKET.test(bucket)) throw new Error(`HAUL_S3_BUCKET must be a bucket name (3-63 of a-z, 0-9, "." and "-"), got "${bucket}"`);
  const region = get('HAUL_S3_REGION') || get('AWS_REGION') || '';
  if (!region) throw new Error('HAUL_BLOB_STORE=s3 needs HAUL_S3_REGION (us-east-1 suits most S3-compatible servers)');
  const accessKeyId = get('HAUL_S3_ACCESS_KEY_ID') || null;
  const secretAccessKey = get('HAUL_S3_SECRET_ACCESS_KEY') || null;
  if (!accessKeyId !== !secretAccessKey) {
    throw new Error('HAUL_S3_ACCESS_KEY_ID and HAUL_S3_SECRET_ACCESS_KEY go together: set both, or neither to use the AWS credential chain');
  }
  return {
    blobStore: 's3',
    s3: {
      endpoint,
      bucket,
      region,
      accessKeyId,
      secretAccessKey,
      // Custom endpoints are almost always path-style; AWS itself is virtual-hosted.
      forcePathStyle: bool(get('HAUL_S3_FORCE_PATH_STYLE'), endpoint !== null),
      presignedDownloads: bool(get('HAUL_S3_PRESIGNED_DOWNLOADS'), false),
    },
  };
}
