import type { ReadRange } from "./video-containers";

/** Range reads of a stored object, for the readers of video files (video-duration.ts, inspect-video.ts). */
export const objectRangeReader =
  (bucket: R2Bucket, key: string): ReadRange =>
  async (offset, length) => {
    const object = await bucket.get(key, { range: { offset, length } });
    return new Uint8Array(object ? await object.arrayBuffer() : new ArrayBuffer(0));
  };
