/**
 * What a file really is, read from its first bytes. The name and the declared Content-Type of an upload are
 * never trusted: a file is stored only when its magic bytes say it is one of these types.
 */
export type MediaKind = "image" | "video";

export interface FileType {
  kind: MediaKind;
  contentType: string;
  extension: string;
}

const SUPPORTED_TYPES: Record<string, FileType> = {
  "image/jpeg": { kind: "image", contentType: "image/jpeg", extension: "jpg" },
  "image/png": { kind: "image", contentType: "image/png", extension: "png" },
  "image/webp": { kind: "image", contentType: "image/webp", extension: "webp" },
  "image/gif": { kind: "image", contentType: "image/gif", extension: "gif" },
  "video/mp4": { kind: "video", contentType: "video/mp4", extension: "mp4" },
  "video/quicktime": { kind: "video", contentType: "video/quicktime", extension: "mov" },
  "video/webm": { kind: "video", contentType: "video/webm", extension: "webm" },
};

/**
 * ISO media files that are not videos: HEIF/HEIC and AVIF photos (which carry Exif this code does not strip)
 * and audio books. They share MP4's "ftyp" box, so the major brand tells them apart.
 */
const NOT_VIDEO_BRANDS = new Set([
  "heic",
  "heix",
  "hevc",
  "hevx",
  "heim",
  "heis",
  "hevm",
  "hevs",
  "mif1",
  "msf1",
  "avif",
  "avis",
  "M4A ",
  "M4B ",
]);

const ascii = (bytes: Uint8Array, start: number, length: number) =>
  String.fromCharCode(...bytes.subarray(start, start + length));

const startsWith = (bytes: Uint8Array, signature: number[]) => signature.every((byte, i) => bytes[i] === byte);

/** The type the bytes prove, or null for anything else (text, scripts, HTML, unknown formats). */
export function detectFileType(bytes: Uint8Array): FileType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return SUPPORTED_TYPES["image/jpeg"]!;
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return SUPPORTED_TYPES["image/png"]!;
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") return SUPPORTED_TYPES["image/webp"]!;
  if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a") return SUPPORTED_TYPES["image/gif"]!;
  if (ascii(bytes, 4, 4) === "ftyp") {
    const brand = ascii(bytes, 8, 4);
    if (NOT_VIDEO_BRANDS.has(brand)) return null;
    return brand === "qt  " ? SUPPORTED_TYPES["video/quicktime"]! : SUPPORTED_TYPES["video/mp4"]!;
  }
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return SUPPORTED_TYPES["video/webm"]!;
  return null;
}

/** Browsers name some types differently; these are the same thing. */
const ALIASES: Record<string, string> = {
  "image/jpg": "image/jpeg",
  "image/pjpeg": "image/jpeg",
  "video/x-m4v": "video/mp4",
  "video/x-quicktime": "video/quicktime",
};

/** A declared Content-Type, lower-cased and without parameters, mapped onto SUPPORTED_TYPES; null if unsupported. */
export function declaredFileType(contentType: string): FileType | null {
  const bare = contentType.split(";")[0]!.trim().toLowerCase();
  return SUPPORTED_TYPES[ALIASES[bare] ?? bare] ?? null;
}

/**
 * Does the file match what the uploader declared? Images must be exactly the declared format; MP4 and QuickTime
 * share one container (ISO base media) and browsers label them by extension, so either declaration fits either.
 */
export function matchesDeclared(detected: FileType, declared: FileType): boolean {
  if (detected.contentType === declared.contentType) return true;
  const isoMedia = new Set(["video/mp4", "video/quicktime"]);
  return isoMedia.has(detected.contentType) && isoMedia.has(declared.contentType);
}
