import { describe, expect, it } from "vitest";
import { answerRange, wholeFileSize } from "~/sw/cached-range";

// 1000 bytes whose values say where they are: byte i is i % 251.
const FILE = Uint8Array.from({ length: 1000 }, (_, index) => index % 251);
const kept = () =>
  new Response(FILE, { headers: { "Content-Type": "video/mp4", "Content-Length": "1000", ETag: '"abc"' } });

async function bytesOf(response: Response) {
  return new Uint8Array(await response.arrayBuffer());
}

describe("answerRange", () => {
  it.each([
    ["bytes=0-99", 0, 99],
    ["bytes=900-", 900, 999],
    ["bytes=-10", 990, 999],
    ["bytes=990-5000", 990, 999],
    ["bytes=0-", 0, 999],
  ])("answers %s with a 206 of bytes %i to %i", async (range, first, last) => {
    const answer = await answerRange(kept(), range);
    expect(answer.status).toBe(206);
    expect(answer.headers.get("Content-Range")).toBe(`bytes ${first}-${last}/1000`);
    expect(answer.headers.get("Content-Length")).toBe(String(last - first + 1));
    expect(answer.headers.get("Content-Type")).toBe("video/mp4");
    expect(answer.headers.get("Accept-Ranges")).toBe("bytes");
    const expected = Array.from({ length: last - first + 1 }, (_, offset) => (first + offset) % 251);
    expect([...(await bytesOf(answer))]).toEqual(expected);
  });

  it("answers without a Range header, or with one it does not serve, with the whole file", async () => {
    for (const range of [null, "bytes=0-1,5-6", "items=0-1"]) {
      const answer = await answerRange(kept(), range);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("Content-Length")).toBe("1000");
      expect(answer.headers.get("Content-Range")).toBeNull();
      expect(await bytesOf(answer)).toEqual(FILE);
    }
  });

  it("answers a range past the end with 416 and the size", async () => {
    const answer = await answerRange(kept(), "bytes=1000-");
    expect(answer.status).toBe(416);
    expect(answer.headers.get("Content-Range")).toBe("bytes */1000");
    expect(answer.headers.get("Content-Length")).toBeNull();
  });
});

describe("wholeFileSize", () => {
  const answer = (status: number, headers: Record<string, string>) => new Response("x", { status, headers });

  it("is the size of a 200, and of a 206 from the first byte to the last", () => {
    expect(wholeFileSize(answer(200, { "Content-Length": "1000" }))).toBe(1000);
    expect(wholeFileSize(answer(206, { "Content-Range": "bytes 0-999/1000" }))).toBe(1000);
  });

  it("is null for a part of the file", () => {
    expect(wholeFileSize(answer(206, { "Content-Range": "bytes 0-499/1000" }))).toBeNull();
    expect(wholeFileSize(answer(206, { "Content-Range": "bytes 500-999/1000" }))).toBeNull();
    expect(wholeFileSize(answer(206, { "Content-Range": "bytes 0-999/*" }))).toBeNull();
    expect(wholeFileSize(answer(200, {}))).toBeNull();
  });
});
