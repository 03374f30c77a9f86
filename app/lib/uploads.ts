/**
 * Uploading a file to /api/uploads (see worker/api/routes/uploads.ts): the server is told what the file is, the
 * bytes go part by part with XMLHttpRequest (for progress events), a failed part is retried with backoff, and
 * an interrupted upload of the same file resumes with the parts the server does not have yet. For post media,
 * the browser also makes what a Worker cannot: a video's poster frame and the small blurred preview of locked
 * posts. Errors are `ApiError`s carrying the server's translated message.
 */
import type { UploadedMedia, UploadStatus } from "@shared/contracts/uploads";
import type { Shape } from "@shared/shape";
import { ApiError, type ApiErrorBody } from "~/lib/api";
import { createdUploadShape, uploadedMediaShape, uploadStatusShape } from "~/lib/upload-shapes";
import { readToken } from "~/lib/token";
import { SCALED_WIDTHS } from "@shared/contracts/scaled-widths";

export type UploadPurpose = "post" | "message" | "story" | "avatar" | "cover" | "id_document" | "id_selfie";

export type { UploadedMedia };

export interface UploadOptions {
  purpose: UploadPurpose;
  csrfToken: string | null;
  /** 0..1, called as bytes leave the browser. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** The media id, as soon as the server has opened the upload (before the bytes are sent). */
  onStarted?: (mediaId: number) => void;
}

const PART_ATTEMPTS = 4;
const PREVIEW_SIZE = 24;
const POSTER_MAX_WIDTH = 1280;
/** A story photo's poster: a highlight's cover, 56 CSS pixels at density 3 and some room. */
const STORY_COVER_WIDTH = 240;
/** The quality of a photo's copies (SCALED_WIDTHS). */
const SCALED_QUALITY = 0.82;

export async function uploadFile(picked: File, options: UploadOptions): Promise<UploadedMedia> {
  const file = await fitted(picked, options.purpose);
  const call = caller(options);
  const resumeKey = `upload:${options.purpose}:${file.name}:${file.size}:${file.lastModified}`;
  const { mediaId, upload } = await startOrResume(call, file, options.purpose, resumeKey);
  remember(resumeKey, mediaId);
  options.onStarted?.(mediaId);
  try {
    const media = await sendParts(call, mediaId, upload, file, options);
    forget(resumeKey);
    return media;
  } catch (error) {
    // A refusal (4xx) is final: the next try starts afresh. A network failure keeps the id, to resume.
    if (error instanceof ApiError && error.status < 500) forget(resumeKey);
    throw error;
  }
}

async function sendParts(
  call: Caller,
  mediaId: number,
  upload: UploadStatus,
  file: File,
  options: UploadOptions,
): Promise<UploadedMedia> {
  // Post and chat media get a poster frame (videos) and a blurred preview (shown while locked); a story's video
  // its poster frame (a story is never shown locked).
  if (options.purpose === "post" || options.purpose === "message") await uploadVariants(call, mediaId, file, true);
  else if (options.purpose === "story") await uploadVariants(call, mediaId, file, false);
  const received = new Set(upload.receivedParts);
  let sent = upload.receivedParts.reduce((total, n) => total + partBytes(file, upload, n).size, 0);
  options.onProgress?.(sent / file.size);
  for (let n = 1; n <= upload.partCount; n++) {
    if (received.has(n)) continue;
    const part = partBytes(file, upload, n);
    await withRetries(options.signal, () =>
      call.send("PUT", `/uploads/${mediaId}/parts/${n}`, part, (loaded) =>
        options.onProgress?.((sent + loaded) / file.size),
      ),
    );
    sent += part.size;
  }
  const media = await call.json("POST", `/uploads/${mediaId}/complete`, uploadedMediaShape);
  options.onProgress?.(1);
  return media;
}

/** Removes an upload of the user's that is not attached to a post (a composer's photo taken back). */
export async function deleteUpload(mediaId: number, csrfToken: string | null): Promise<void> {
  await caller({ csrfToken }).json("DELETE", `/uploads/${mediaId}`, null);
}

async function startOrResume(call: Caller, file: File, purpose: UploadPurpose, resumeKey: string) {
  const earlier = recalled(resumeKey);
  if (earlier !== null) {
    const upload = await call.json("GET", `/uploads/${earlier}`, uploadStatusShape).catch(() => null);
    // A file already attached to a post belongs to that post: a new composer starts a new upload.
    if (upload?.status === "uploading" && upload.postId === null) return { mediaId: earlier, upload };
  }
  const created = await call.json("POST", "/uploads", createdUploadShape, {
    purpose,
    // The API refuses control characters in every text field; some systems allow them in file names.
    fileName: file.name.replace(/\p{Cc}/gu, "").slice(0, 255) || "file",
    contentType: file.type || "application/octet-stream",
    size: file.size,
  });
  const upload: UploadStatus = {
    status: "uploading",
    partSize: created.partSize,
    partCount: created.partCount,
    receivedParts: [],
    postId: null,
    renditions: [],
  };
  return { mediaId: created.mediaId, upload };
}

const partBytes = (file: File, upload: UploadStatus, n: number) =>
  file.slice((n - 1) * upload.partSize, n * upload.partSize);

/** Network failures and 5xx are retried after 1, 2, 4 s; a 4xx is the server's answer and is not. */
async function withRetries<T>(signal: AbortSignal | undefined, attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      const retryable = !(error instanceof ApiError) || error.status >= 500;
      if (!retryable || tries >= PART_ATTEMPTS || signal?.aborted) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000 * 2 ** (tries - 1)));
    }
  }
}

/**
 * The poster frame (videos; of a story's photo, a small copy for its highlight's cover), the blurred preview (all
 * post and chat media) and, of a post's or message's photo wider than 640 or 1280 pixels, a copy that wide, which
 * phones load instead of the original (srcset, app/lib/scaled-images.ts). A browser that cannot make them skips them.
 */
async function uploadVariants(call: Caller, mediaId: number, file: File, withPreview: boolean) {
  try {
    const source = file.type.startsWith("video/") ? await videoFrame(file) : await createImageBitmap(file);
    if (file.type.startsWith("video/")) {
      await call.send("PUT", `/uploads/${mediaId}/poster`, await drawJpeg(source, POSTER_MAX_WIDTH, 0.8));
    } else if (!withPreview) {
      // A story's photo: a small copy as its poster, the cover of a highlight it is kept in (a circle 56 pixels wide).
      await call.send("PUT", `/uploads/${mediaId}/poster`, await drawJpeg(source, STORY_COVER_WIDTH, 0.8));
    }
    if (withPreview) await call.send("PUT", `/uploads/${mediaId}/preview`, await drawJpeg(source, PREVIEW_SIZE, 0.7));
    if (withPreview && !(source instanceof HTMLVideoElement)) {
      for (const width of SCALED_WIDTHS) {
        if (source.width > width)
          await call.send("PUT", `/uploads/${mediaId}/w${width}`, await drawScaled(source, width));
      }
    }
  } catch (error) {
    // Without a preview a locked card shows a plain placeholder, without copies the page the original: the upload
    // itself must not fail for them.
    console.warn("poster/preview/copies skipped", error);
  }
}

type Drawable = HTMLVideoElement | ImageBitmap;

/**
 * The most pixels an avatar's longer side, a cover's width and a story photo's longer side need: where each is
 * shown largest (an avatar 80 CSS pixels, a cover a profile's column, a story a phone's whole screen, 1080×1920 as
 * Instagram keeps them), at a phone's density 3 and a desktop's 2, with room to spare.
 */
const FITTED_SIZE: Partial<Record<UploadPurpose, { side: "longer" | "width"; pixels: number }>> = {
  avatar: { side: "longer", pixels: 400 },
  cover: { side: "width", pixels: 1920 },
  story: { side: "longer", pixels: 1920 },
};

/**
 * An avatar, a cover or a story's photo bigger than it is ever shown leaves the browser drawn at that size (WebP
 * or JPEG, as a photo's copies): an avatar is on every post and comment of its owner, a story is seen by every
 * follower within a day and then gone, and a camera's original is several MB. A GIF (it may move), a smaller
 * image, or one the browser cannot decode is sent as it is; the server checks either the same way. The same
 * picture gives the same bytes, so an interrupted upload still resumes.
 */
async function fitted(file: File, purpose: UploadPurpose): Promise<File> {
  const fit = FITTED_SIZE[purpose];
  if (!fit || !/^image\/(jpeg|png|webp)$/.test(file.type)) return file;
  try {
    const bitmap = await createImageBitmap(file);
    const measured = fit.side === "longer" ? Math.max(bitmap.width, bitmap.height) : bitmap.width;
    if (measured <= fit.pixels) return file;
    const blob = await drawScaled(bitmap, Math.round((bitmap.width * fit.pixels) / measured));
    const extension = blob.type === "image/webp" ? "webp" : "jpg";
    return new File([blob], `${file.name.replace(/\.[^.]*$/, "")}.${extension}`, {
      type: blob.type,
      lastModified: file.lastModified,
    });
  } catch {
    return file;
  }
}

/** A copy `width` pixels wide: WebP where the browser can write it (smaller, and it keeps transparency), else JPEG. */
async function drawScaled(source: ImageBitmap, width: number): Promise<Blob> {
  const webp = await drawJpeg(source, width, SCALED_QUALITY, "image/webp");
  return webp.type === "image/webp" ? webp : drawJpeg(source, width, SCALED_QUALITY);
}

function drawJpeg(source: Drawable, maxWidth: number, quality: number, type = "image/jpeg"): Promise<Blob> {
  const width = source instanceof HTMLVideoElement ? source.videoWidth : source.width;
  const height = source instanceof HTMLVideoElement ? source.videoHeight : source.height;
  const scale = Math.min(1, maxWidth / Math.max(width, 1));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(width * scale));
  canvas.height = Math.max(1, Math.round(height * scale));
  canvas.getContext("2d")!.drawImage(source, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("no image"))), type, quality),
  );
}

/** A video element showing the frame at 0.1 s, ready to be drawn. */
function videoFrame(file: File): Promise<HTMLVideoElement> {
  const url = URL.createObjectURL(file);
  const video = document.createElement("video");
  video.muted = true;
  video.preload = "auto";
  video.src = url;
  return new Promise<HTMLVideoElement>((resolve, reject) => {
    video.onloadeddata = () => {
      video.currentTime = Math.min(0.1, video.duration || 0);
    };
    video.onseeked = () => resolve(video);
    video.onerror = () => reject(new Error("video cannot be decoded"));
  }).finally(() => setTimeout(() => URL.revokeObjectURL(url), 0));
}

type Caller = ReturnType<typeof caller>;

/** The API's headers (Bearer token, CSRF token) for fetch and XHR calls. */
function caller({ csrfToken, signal }: { csrfToken: string | null; signal?: AbortSignal }) {
  const token = readToken();
  const headers: Record<string, string> = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (csrfToken) headers["X-CSRF-Token"] = csrfToken;

  /** A JSON call; its answer, if read, is checked with `shape` (an answer of another shape throws a ShapeError). */
  async function json<T>(method: string, path: string, shape: Shape<T> | null, body?: unknown): Promise<T> {
    const response = await fetch(`/api${path}`, {
      method,
      credentials: "same-origin",
      signal,
      headers: body === undefined ? headers : { ...headers, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) {
      const payload = (await response.json().catch(() => null)) as ApiErrorBody | null;
      throw new ApiError(response.status, payload ?? { message: response.statusText, errors: {} });
    }
    return shape && response.status !== 204 ? shape(await response.json()) : (undefined as T);
  }

  /** Raw bytes with upload progress (bytes of this request sent so far). */
  function send(method: string, path: string, body: Blob, onProgress?: (loaded: number) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(method, `/api${path}`);
      for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
      xhr.setRequestHeader("Content-Type", "application/octet-stream");
      xhr.upload.onprogress = (event) => onProgress?.(event.loaded);
      xhr.onload = () => {
        if (xhr.status >= 200 && xhr.status < 300) return resolve();
        let payload: ApiErrorBody = { message: xhr.statusText, errors: {} };
        try {
          payload = JSON.parse(xhr.responseText) as ApiErrorBody;
        } catch {
          // Not the API's error shape (a proxy's page): keep the status text.
        }
        reject(new ApiError(xhr.status, payload));
      };
      xhr.onerror = () => reject(new Error("network error"));
      xhr.onabort = () => reject(new DOMException("aborted", "AbortError"));
      signal?.addEventListener("abort", () => xhr.abort(), { once: true });
      xhr.send(body);
    });
  }

  return { json, send };
}

/** Resumable uploads survive a reload: the media id of an unfinished upload of this very file. */
function recalled(key: string): number | null {
  try {
    const value = Number(localStorage.getItem(key));
    return Number.isInteger(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

function remember(key: string, mediaId: number) {
  try {
    localStorage.setItem(key, String(mediaId));
  } catch {
    // Private mode: the upload still works, it just cannot resume after a reload.
  }
}

function forget(key: string) {
  try {
    localStorage.removeItem(key);
  } catch {
    // Nothing stored.
  }
}
