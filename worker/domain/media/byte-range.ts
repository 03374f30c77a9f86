/** One byte range of a Range header, resolved against the object's size. */
export interface ByteRange {
  offset: number;
  length: number;
}

/**
 * `Range: bytes=…` (RFC 9110 §14.1.2) for a file of `size` bytes: a range to serve, "unsatisfiable" (416), or
 * null to ignore the header and serve the whole file (absent, malformed, other units, several ranges: video
 * players ask for one).
 */
export function parseByteRange(header: string | undefined | null, size: number): ByteRange | "unsatisfiable" | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec((header ?? "").trim());
  if (!match || (match[1] === "" && match[2] === "")) return null;
  const [first, last] = [match[1]!, match[2]!];
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    const length = Math.min(suffix, size);
    return { offset: size - length, length };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { offset: start, length: end - start + 1 };
}
