/** Runs `fn` over `items` with at most `limit` running at once; resolves when all have ended (`fn` handles its own failures). */
export async function eachLimited<T>(items: T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Files moved at once by upload and get: rclone's default (--transfers 4); enough to hide each file's round trips. */
export const TRANSFERS = 4;
