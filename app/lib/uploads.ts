/**
 * Uploading a file to /api/uploads (see worker/api/routes/uploads.ts): the server is told what the file is, the
 * bytes go part by part with XMLHttpRequest (for progress events), a failed part is retried with backoff, and
 * an interrupted upload of the same file resumes with the parts the server does not have yet. For post media,
 * the browser also makes what a Worker cannot: a video's poster frame and the small blurred preview of locked
 * posts. A post's, chat's or story's video also gets its renditions (app/lib/video-renditions.ts), made while the
 * original's parts go and uploaded before the original's completion, which is last: it makes the medium ready and
 * publishes a post waiting for it. A creator's photo the server marks (its `watermark`) gets the mark drawn into every
 * copy fans get, and a full-size marked copy, without which the server does not complete it
 * (docs/decisions/watermarks.md). Errors are `ApiError`s carrying the server's translated message.
 */
import { del, get, set } from "idb-keyval";
import type { RenditionUpload } from "@shared/contracts/renditions";
import type { UploadedMedia, UploadStatus } from "@shared/contracts/uploads";
import { number, object, type Shape } from "@shared/shape";
import { ApiError, type ApiErrorBody } from "~/lib/api";
import { createdUploadShape, uploadedMediaShape, uploadStatusShape } from "~/lib/upload-shapes";
import { readToken } from "~/lib/token";
import { SCALED_WIDTHS } from "@shared/contracts/scaled-widths";
import type { Rendition } from "~/lib/video-renditions";
import { drawWatermark } from "~/lib/watermark";
import { markedSizeOf } from "@shared/watermark";

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
  /** A video's renditions: "converting" while they are made, then "done", or "unsupported" (the original alone goes). */
  onConversion?: (state: ConversionState) => void;
  /** 0..1 of making the renditions. */
  onConvertProgress?: (fraction: number) => void;
}

export type ConversionState = "converting" | "done" | "unsupported";

/** What a video's conversion gave: its renditions, or "unsupported". */
type Converted = Rendition[] | "unsupported";

/** The answer to starting a rendition's upload (POST /uploads/{id}/renditions/{name}). */
const renditionPartsShape = object({ partSize: number, partCount: number });

const PART_ATTEMPTS = 4;
const PREVIEW_SIZE = 24;
const POSTER_MAX_WIDTH = 1280;
/** A story photo's poster: a highlight's cover, 56 CSS pixels at density 3 and some room. */
const STORY_COVER_WIDTH = 240;
/** The quality of a photo's copies (SCALED_WIDTHS). */
const SCALED_QUALITY = 0.82;
/** The quality of a marked photo's full-size copy: what fans see when they open it large. */
const MARKED_QUALITY = 0.9;

export async function uploadFile(picked: File, options: UploadOptions): Promise<UploadedMedia> {
  const file = await fitted(picked, options.purpose);
  const call = caller(options);
  const resumeKey = `upload:${options.purpose}:${file.name}:${file.size}:${file.lastModified}`;
  const { mediaId, upload, streamUrl } = await startOrResume(call, file, options.purpose, resumeKey);
  remember(resumeKey, mediaId, streamUrl);
  options.onStarted?.(mediaId);
  try {
    const media = streamUrl
      ? await sendToStream(call, mediaId, streamUrl, file, options)
      : await sendParts(call, mediaId, upload, file, resumeKey, options);
    forget(resumeKey);
    return media;
  } catch (error) {
    // A refusal (4xx) is final: the next try starts afresh. A network failure keeps the id, to resume.
    if (error instanceof ApiError && error.status < 500) forget(resumeKey);
    throw error;
  }
}

/** A video that gets renditions: a post's, a message's or a story's. */
const convertible = (file: File, purpose: UploadPurpose) =>
  file.type.startsWith("video/") && (purpose === "post" || purpose === "message" || purpose === "story");

async function sendParts(
  call: Caller,
  mediaId: number,
  upload: UploadStatus,
  file: File,
  resumeKey: string,
  options: UploadOptions,
): Promise<UploadedMedia> {
  await uploadVariantsFor(call, mediaId, file, options.purpose, upload.watermark);
  // Upload progress counts the original's bytes and the renditions', known (or about known) once planned.
  let renditionBytes = 0;
  let renditionsSent = 0;
  let originalSent = upload.receivedParts.reduce((total, n) => total + partBytes(file, upload, n).size, 0);
  const progress = (inFlight = 0) =>
    options.onProgress?.(Math.min(1, (originalSent + renditionsSent + inFlight) / (file.size + renditionBytes)));

  // The renditions are made while the original's parts go; a failure of either stops the other.
  const converting = new AbortController();
  const stopConverting = () => converting.abort();
  options.signal?.addEventListener("abort", stopConverting, { once: true });
  const converted = convertible(file, options.purpose)
    ? renditionsOf(file, resumeKey, converting.signal, options, (bytes) => {
        renditionBytes = bytes;
        progress();
      })
    : Promise.resolve<Converted>([]);
  converted.catch(() => undefined);
  try {
    progress();
    const received = new Set(upload.receivedParts);
    for (let n = 1; n <= upload.partCount; n++) {
      if (received.has(n)) continue;
      const part = partBytes(file, upload, n);
      await withRetries(options.signal, () =>
        call.send("PUT", `/uploads/${mediaId}/parts/${n}`, part, (loaded) => progress(loaded)),
      );
      originalSent += part.size;
    }
    const renditions = await converted;
    if (renditions !== "unsupported") {
      renditionBytes = renditions.reduce((total, rendition) => total + rendition.blob.size, 0);
      for (const rendition of renditions) {
        const known = upload.renditions.find((item) => item.name === rendition.name);
        await sendRendition(call, mediaId, rendition, known, upload.partSize, options.signal, progress);
        renditionsSent += rendition.blob.size;
      }
    }
  } finally {
    options.signal?.removeEventListener("abort", stopConverting);
    stopConverting();
  }
  const media = await call.json("POST", `/uploads/${mediaId}/complete`, uploadedMediaShape);
  options.onProgress?.(1);
  return media;
}

/**
 * A video's renditions: the ones kept from an earlier try of this very file (IndexedDB, until the upload
 * completes), else made now and kept. `onBytes`: about how many bytes they have, as soon as that is known.
 */
async function renditionsOf(
  file: File,
  resumeKey: string,
  signal: AbortSignal,
  options: UploadOptions,
  onBytes: (bytes: number) => void,
): Promise<Converted> {
  const storeKey = renditionsKey(resumeKey);
  // Private mode, a full disk, no IndexedDB: the upload goes on, a reload just converts again.
  const kept = keptRenditions(await quietly(() => get<unknown>(storeKey)));
  let converted: Converted;
  if (kept) {
    converted = kept;
  } else {
    options.onConversion?.("converting");
    options.onConvertProgress?.(0);
    const loaded = await import("~/lib/video-renditions").catch((error: unknown) => {
      // Offline, or a new deployment took the module away: the original goes alone, and a later try converts.
      console.warn("renditions not made", error);
      return null;
    });
    converted = loaded
      ? await loaded.makeRenditions(file, { signal, onProgress: options.onConvertProgress, onPlanned: onBytes })
      : "unsupported";
    if (loaded) await quietly(() => set(storeKey, converted));
  }
  if (converted !== "unsupported") {
    onBytes(converted.reduce((total, rendition) => total + rendition.blob.size, 0));
    options.onConvertProgress?.(1);
  }
  options.onConversion?.(converted === "unsupported" ? "unsupported" : "done");
  return converted;
}

const renditionsKey = (resumeKey: string) => `${resumeKey}:renditions`;

/** What IndexedDB gave back, if it is what renditionsOf kept there. */
function keptRenditions(value: unknown): Converted | null {
  if (value === "unsupported") return value;
  if (!Array.isArray(value)) return null;
  const valid = value.every(
    (item: Partial<Rendition> | null) =>
      (item?.name === "360p" || item?.name === "720p") &&
      item.blob instanceof Blob &&
      (item.contentType === "video/mp4" || item.contentType === "video/webm"),
  );
  return valid ? (value as Rendition[]) : null;
}

/**
 * One rendition, in parts as the original: only the parts the server lacks when it has begun this very file (same
 * size), none when it has it ready. A rendition the server refuses (422 or 413: not what it claims, too big, too
 * long…), at its start, a part or its completion, is dropped, and the video plays its other renditions or the
 * original; any other failure is the upload's. `onProgress`: bytes of this rendition sent so far.
 */
async function sendRendition(
  call: Caller,
  mediaId: number,
  rendition: Rendition,
  known: RenditionUpload | undefined,
  serverPartSize: number,
  signal: AbortSignal | undefined,
  onProgress: (sent: number) => void,
): Promise<void> {
  const size = rendition.blob.size;
  const path = `/uploads/${mediaId}/renditions/${rendition.name}`;
  if (known?.status === "ready" && known.size === size) return;
  // The status lists a rendition's parts but not their size: the server's part size, as the original's.
  const resumable =
    known?.status === "uploading" && known.size === size && known.partCount === Math.ceil(size / serverPartSize);
  try {
    const { partSize, partCount } = resumable
      ? { partSize: serverPartSize, partCount: known.partCount }
      : await call.json("POST", path, renditionPartsShape, { contentType: rendition.contentType, size });
    const received = new Set(resumable ? known.receivedParts : []);
    const part = (n: number) => rendition.blob.slice((n - 1) * partSize, n * partSize);
    let sent = [...received].reduce((total, n) => total + part(n).size, 0);
    onProgress(sent);
    for (let n = 1; n <= partCount; n++) {
      if (received.has(n)) continue;
      const bytes = part(n);
      await withRetries(signal, () =>
        call.send("PUT", `${path}/parts/${n}`, bytes, (loaded) => onProgress(sent + loaded)),
      );
      sent += bytes.size;
    }
    await call.json("POST", `${path}/complete`, null);
  } catch (error) {
    if (!(error instanceof ApiError && (error.status === 422 || error.status === 413))) throw error;
    console.warn(`rendition ${rendition.name} refused:`, error.body.message);
  }
}

/**
 * With Cloudflare Stream: the poster and preview as always, the bytes to Stream (which makes the renditions
 * itself), then the completion, which makes the medium ready.
 */
async function sendToStream(
  call: Caller,
  mediaId: number,
  uploadUrl: string,
  file: File,
  options: UploadOptions,
): Promise<UploadedMedia> {
  await uploadVariantsFor(call, mediaId, file, options.purpose, null);
  const { uploadToStream } = await import("~/lib/stream-upload");
  await uploadToStream(file, uploadUrl, { onProgress: options.onProgress, signal: options.signal });
  const media = await call.json("POST", `/uploads/${mediaId}/complete`, uploadedMediaShape);
  options.onProgress?.(1);
  return media;
}

/**
 * Post and chat media get a poster frame (videos) and a blurred preview (shown while locked); a story's video its
 * poster frame (a story is never shown locked). `watermark`: the mark the server gave this photo, or null.
 */
async function uploadVariantsFor(
  call: Caller,
  mediaId: number,
  file: File,
  purpose: UploadPurpose,
  watermark: string | null,
) {
  if (purpose === "post" || purpose === "message") await uploadVariants(call, mediaId, file, true, watermark);
  else if (purpose === "story") await uploadVariants(call, mediaId, file, false, null);
}

/** Removes an upload of the user's that is not attached to a post (a composer's photo taken back). */
export async function deleteUpload(mediaId: number, csrfToken: string | null): Promise<void> {
  await caller({ csrfToken }).json("DELETE", `/uploads/${mediaId}`, null);
}

async function startOrResume(call: Caller, file: File, purpose: UploadPurpose, resumeKey: string) {
  const earlier = recalled(resumeKey);
  if (earlier !== null) {
    const upload = await call.json("GET", `/uploads/${earlier.mediaId}`, uploadStatusShape).catch(() => null);
    // A file already attached to a post belongs to that post: a new composer starts a new upload.
    if (upload?.status === "uploading" && upload.postId === null)
      return { mediaId: earlier.mediaId, upload, streamUrl: earlier.streamUrl };
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
    watermark: created.watermark,
  };
  return { mediaId: created.mediaId, upload, streamUrl: created.stream?.uploadUrl ?? null };
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
 * A marked photo's copies carry the mark, and its full-size marked copy goes first: without it the upload fails,
 * since the server would not complete the photo.
 */
async function uploadVariants(
  call: Caller,
  mediaId: number,
  file: File,
  withPreview: boolean,
  watermark: string | null,
) {
  const marked = watermark === null ? null : await sendMarkedCopy(call, mediaId, file, watermark);
  try {
    const source = marked ?? (file.type.startsWith("video/") ? await videoFrame(file) : await createImageBitmap(file));
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
          await call.send("PUT", `/uploads/${mediaId}/w${width}`, await drawScaled(source, width, watermark));
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

/** The full-size copy of a marked photo, the mark drawn in (markedSizeOf: fitted to Safari's largest canvas). */
async function sendMarkedCopy(call: Caller, mediaId: number, file: File, watermark: string): Promise<ImageBitmap> {
  const bitmap = await createImageBitmap(file);
  const copy = await drawScaled(bitmap, markedSizeOf(bitmap.width, bitmap.height), watermark, MARKED_QUALITY);
  await withRetries(undefined, () => call.send("PUT", `/uploads/${mediaId}/marked`, copy));
  return bitmap;
}

/**
 * A copy (`fit`): WebP where the browser can write it (smaller, and it keeps transparency), else JPEG;
 * with the mark `watermark` drawn in, if given.
 */
async function drawScaled(
  source: ImageBitmap,
  fit: Fit,
  watermark: string | null = null,
  quality = SCALED_QUALITY,
): Promise<Blob> {
  const webp = await drawJpeg(source, fit, quality, "image/webp", watermark);
  return webp.type === "image/webp" ? webp : drawJpeg(source, fit, quality, "image/jpeg", watermark);
}

/** How large a copy is drawn: at most this wide (its height follows), or exactly this size. */
type Fit = number | { width: number; height: number };

function drawJpeg(
  source: Drawable,
  fit: Fit,
  quality: number,
  type = "image/jpeg",
  watermark: string | null = null,
): Promise<Blob> {
  const width = source instanceof HTMLVideoElement ? source.videoWidth : source.width;
  const height = source instanceof HTMLVideoElement ? source.videoHeight : source.height;
  const scale = typeof fit === "number" ? Math.min(1, fit / Math.max(width, 1)) : 1;
  const canvas = document.createElement("canvas");
  canvas.width = typeof fit === "number" ? Math.max(1, Math.round(width * scale)) : fit.width;
  canvas.height = typeof fit === "number" ? Math.max(1, Math.round(height * scale)) : fit.height;
  const draw = canvas.getContext("2d")!;
  draw.drawImage(source, 0, 0, canvas.width, canvas.height);
  if (watermark !== null) drawWatermark(draw, canvas.width, canvas.height, watermark);
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

/**
 * Resumable uploads survive a reload: the media id of an unfinished upload of this very file (and, with Cloudflare
 * Stream, where its bytes go); its renditions are kept beside it in IndexedDB.
 */
function recalled(key: string): { mediaId: number; streamUrl: string | null } | null {
  try {
    const value = Number(localStorage.getItem(key));
    if (!Number.isInteger(value) || value <= 0) return null;
    return { mediaId: value, streamUrl: localStorage.getItem(`${key}:stream`) };
  } catch {
    return null;
  }
}

function remember(key: string, mediaId: number, streamUrl: string | null) {
  try {
    localStorage.setItem(key, String(mediaId));
    if (streamUrl) localStorage.setItem(`${key}:stream`, streamUrl);
  } catch {
    // Private mode: the upload still works, it just cannot resume after a reload.
  }
}

function forget(key: string) {
  try {
    localStorage.removeItem(key);
    localStorage.removeItem(`${key}:stream`);
  } catch {
    // Nothing stored.
  }
  void quietly(() => del(renditionsKey(key)));
}

/** An IndexedDB call whose failure (private mode, a full disk, no IndexedDB at all) only costs the resumption. */
async function quietly<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch {
    return undefined;
  }
}
