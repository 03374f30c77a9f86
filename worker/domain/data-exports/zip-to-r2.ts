import { Zip, ZipPassThrough } from "fflate";

/** One file of the archive: its path inside the ZIP and its bytes, read as they are written. */
export interface ZipFile {
  name: string;
  chunks: AsyncIterable<Uint8Array>;
}

/**
 * The size of each uploaded part. R2 wants every part but the last at least 5 MiB and all of the same size; 8 MiB
 * keeps one part (and the chunk that fills it) in memory at a time.
 */
export const PART_BYTES = 8 * 1024 * 1024;

/**
 * Writes `files` as one ZIP (stored, not compressed: photos and videos are compressed already) to `key`, streaming:
 * fflate frames each file as its chunks arrive, and the output goes to R2 as a multipart upload one part at a time,
 * so neither a large file nor the whole archive is ever held in memory. Answers the ZIP's size. On any failure the
 * upload is aborted and nothing is left under `key`.
 */
export async function writeZipToR2(bucket: R2Bucket, key: string, files: AsyncIterable<ZipFile>): Promise<number> {
  const upload = await bucket.createMultipartUpload(key, { httpMetadata: { contentType: "application/zip" } });
  const parts: R2UploadedPart[] = [];
  const pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let total = 0;
  let failure: Error | null = null;

  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else if (chunk.length > 0) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      total += chunk.length;
    }
  });

  /** The next `size` bytes of the output, as one part. */
  function take(size: number): Uint8Array {
    const part = new Uint8Array(size);
    let filled = 0;
    while (filled < size) {
      const chunk = pending[0]!;
      const used = Math.min(chunk.length, size - filled);
      part.set(chunk.subarray(0, used), filled);
      filled += used;
      if (used === chunk.length) pending.shift();
      else pending[0] = chunk.subarray(used);
    }
    pendingBytes -= size;
    return part;
  }

  async function uploadParts(final: boolean) {
    if (failure) throw failure;
    while (pendingBytes >= PART_BYTES || (final && pendingBytes > 0)) {
      const part = take(Math.min(PART_BYTES, pendingBytes));
      parts.push(await upload.uploadPart(parts.length + 1, part));
    }
  }

  try {
    for await (const file of files) {
      const entry = new ZipPassThrough(file.name);
      zip.add(entry);
      for await (const chunk of file.chunks) {
        entry.push(chunk);
        await uploadParts(false);
      }
      entry.push(new Uint8Array(0), true);
      await uploadParts(false);
    }
    zip.end();
    await uploadParts(true);
    await upload.complete(parts);
    return total;
  } catch (error) {
    await upload.abort().catch(() => {});
    throw error;
  }
}
