/** The sample id ("cid") of a large file: its size and three 20480-byte slices, enough to ask whether the server may have it. */

export const CID_THRESHOLD_BYTES = 104857600;
export const CID_SLICE_BYTES = 20480;

/** Byte ranges [start, end) sampled for the cid: the start, the middle and the end of the file. */
export function cidSampleRanges(size: number): [number, number][] {
  if (size <= CID_SLICE_BYTES * 3) return [[0, size]];
  const mid = Math.floor(size / 2) - CID_SLICE_BYTES / 2;
  return [
    [0, CID_SLICE_BYTES],
    [mid, mid + CID_SLICE_BYTES],
    [size - CID_SLICE_BYTES, size],
  ];
}
