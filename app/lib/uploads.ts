/**
 * Uploading a file to /api/uploads (the media helper's contract; see worker/api/routes/uploads.ts).
 * CONTRACT STUB: the implementation (multipart, resume, progress, poster frame and blurred preview made in the
 * browser) replaces this body; the exported names and shapes stay.
 */
export type UploadPurpose = "post" | "avatar" | "cover" | "id_document" | "id_selfie";

export interface UploadedMedia {
  /** media.id, to attach to a post, a profile or a creator request. */
  id: number;
  kind: "image" | "video";
  /** Where the uploader can see it (/media/...); private objects are served to their owner and admins only. */
  url: string;
}

export interface UploadOptions {
  purpose: UploadPurpose;
  csrfToken: string | null;
  /** 0..1, called as bytes leave the browser. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export async function uploadFile(_file: File, _options: UploadOptions): Promise<UploadedMedia> {
  throw new Error("uploads are not implemented yet");
}
