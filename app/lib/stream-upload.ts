/**
 * With Cloudflare Stream (VIDEO_PIPELINE=stream): a video's bytes go straight to Stream with tus (resumable), to the
 * one-time URL the server made for this upload (CreatedUpload.stream.uploadUrl).
 */
export interface StreamUploadOptions {
  /** 0..1, as bytes leave the browser. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export async function uploadToStream(file: Blob, uploadUrl: string, options: StreamUploadOptions = {}): Promise<void> {
  void file;
  void uploadUrl;
  void options;
  throw new Error("Cloudflare Stream uploads are not written yet");
}
