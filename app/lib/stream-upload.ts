/**
 * With Cloudflare Stream (VIDEO_PIPELINE=stream): a video's bytes go straight to Stream with tus (resumable), to the
 * one-time URL the server made for this upload (CreatedUpload.stream.uploadUrl). The upload first asks where Stream
 * stands (HEAD: Upload-Offset), so a page reloaded mid-upload, or a chunk lost on a flaky network, resumes from the
 * last byte Stream kept rather than from the start.
 */
export interface StreamUploadOptions {
  /** 0..1, as bytes leave the browser. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/** Stream wants chunks of at least 5 MiB (but the last), in multiples of 256 KiB. */
export const STREAM_CHUNK_BYTES = 32 * 256 * 1024;
/** Tries per chunk; the waits between them double from 1 s. */
const ATTEMPTS = 5;
const TUS = { "Tus-Resumable": "1.0.0" };

/** Stream refused the upload (the URL expired or was used up): trying again will not help, a new upload might. */
export class StreamUploadError extends Error {
  constructor(readonly status: number) {
    super(`Cloudflare Stream answered ${status}`);
  }
}

/** 409 (our offset was not Stream's), 423 (locked by a request still running), 429 and 5xx are worth a retry. */
const retryable = (status: number) => status === 409 || status === 423 || status === 429 || status >= 500;

export async function uploadToStream(file: Blob, uploadUrl: string, options: StreamUploadOptions = {}): Promise<void> {
  const { onProgress, signal } = options;
  let offset: number | null = null;
  let failures = 0;
  for (;;) {
    if (signal?.aborted) throw signal.reason;
    try {
      offset ??= await offsetAt(uploadUrl, signal);
      onProgress?.(Math.min(1, offset / file.size));
      if (offset >= file.size) return;
      offset = await sendChunk(uploadUrl, file, offset, signal);
      failures = 0;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof StreamUploadError || ++failures >= ATTEMPTS) throw error;
      // Stream may have kept part of the chunk: ask again where it stands before sending more.
      offset = null;
      await new Promise((resolve) => setTimeout(resolve, 1000 * 2 ** (failures - 1)));
    }
  }
}

function checked(response: Response): Response {
  if (response.ok) return response;
  if (retryable(response.status)) throw new Error(`Cloudflare Stream answered ${response.status}`);
  throw new StreamUploadError(response.status);
}

function offsetOf(response: Response): number {
  const offset = Number(response.headers.get("Upload-Offset"));
  if (!Number.isSafeInteger(offset) || offset < 0) throw new Error("Cloudflare Stream sent no Upload-Offset");
  return offset;
}

async function offsetAt(uploadUrl: string, signal: AbortSignal | undefined): Promise<number> {
  return offsetOf(checked(await fetch(uploadUrl, { method: "HEAD", headers: TUS, signal, cache: "no-store" })));
}

async function sendChunk(uploadUrl: string, file: Blob, offset: number, signal: AbortSignal | undefined) {
  const response = await fetch(uploadUrl, {
    method: "PATCH",
    headers: { ...TUS, "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" },
    body: file.slice(offset, offset + STREAM_CHUNK_BYTES),
    signal,
  });
  const next = offsetOf(checked(response));
  if (next <= offset) throw new Error("Cloudflare Stream kept nothing of the chunk");
  return next;
}
