import { parseByteRange } from "@worker/domain/media/byte-range";

/**
 * The answer to `range` (a Range header, or null) from a file the cache holds whole: the slice asked for (206) as
 * /media answers it, the whole file when no single range is asked for (200), 416 past its end. A video element
 * asks for ranges, and the Cache API keeps only whole answers.
 */
export async function answerRange(cached: Response, range: string | null): Promise<Response> {
  const file = await cached.blob();
  const headers = new Headers(cached.headers);
  headers.set("Accept-Ranges", "bytes");
  const asked = parseByteRange(range, file.size);
  if (asked === "unsatisfiable") {
    headers.delete("Content-Length");
    headers.set("Content-Range", `bytes */${file.size}`);
    return new Response(null, { status: 416, headers });
  }
  if (!asked) {
    headers.set("Content-Length", String(file.size));
    return new Response(file, { status: 200, headers });
  }
  const end = asked.offset + asked.length;
  headers.set("Content-Length", String(asked.length));
  headers.set("Content-Range", `bytes ${asked.offset}-${end - 1}/${file.size}`);
  return new Response(file.slice(asked.offset, end), { status: 206, headers });
}

/**
 * The size of the whole file when `response` carries all of it: a 200, or a 206 from its first byte to its last
 * (a video element's first request, `bytes=0-`); null for a part.
 */
export function wholeFileSize(response: Response): number | null {
  if (response.status === 200) {
    const length = Number(response.headers.get("Content-Length"));
    return Number.isSafeInteger(length) && length > 0 ? length : null;
  }
  const match = /^bytes 0-(\d+)\/(\d+)$/.exec(response.headers.get("Content-Range") ?? "");
  return response.status === 206 && match && Number(match[1]) + 1 === Number(match[2]) ? Number(match[2]) : null;
}
