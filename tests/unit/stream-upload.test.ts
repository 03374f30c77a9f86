import { afterEach, describe, expect, it, vi } from "vitest";
import { STREAM_CHUNK_BYTES, StreamUploadError, uploadToStream } from "../../app/lib/stream-upload";

const MIB = 1024 * 1024;
const URL_OF_UPLOAD = "https://upload.example.test/tus/0123456789abcdef0123456789abcdef?tusv2=true";

interface Sent {
  method: string;
  offset: number | null;
  length: number;
}

/**
 * A tus server holding one upload: `kept` bytes received before this page started, and `failNext` PATCHes that
 * fail with 503 after keeping 1 MiB of their chunk (as a connection cut mid-chunk does).
 */
function tinyTus(size: number, kept: number, failNext = 0, answer?: number) {
  let offset = kept;
  const sent: Sent[] = [];
  const chunks: Blob[] = [];
  const fetcher = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    const method = init?.method ?? "GET";
    expect(String(url)).toBe(URL_OF_UPLOAD);
    expect(headers.get("Tus-Resumable")).toBe("1.0.0");
    if (answer) return new Response(null, { status: answer });
    if (method === "HEAD") {
      sent.push({ method, offset: null, length: 0 });
      return new Response(null, { status: 200, headers: { "Upload-Offset": String(offset) } });
    }
    const body = init!.body as Blob;
    const at = Number(headers.get("Upload-Offset"));
    sent.push({ method, offset: at, length: body.size });
    expect(headers.get("Content-Type")).toBe("application/offset+octet-stream");
    if (at !== offset) return new Response(null, { status: 409 });
    if (failNext > 0) {
      failNext--;
      chunks.push(body.slice(0, MIB));
      offset += MIB;
      return new Response(null, { status: 503 });
    }
    chunks.push(body);
    offset += body.size;
    return new Response(null, { status: 204, headers: { "Upload-Offset": String(offset) } });
  });
  vi.stubGlobal("fetch", fetcher);
  return { sent, chunks, offset: () => offset };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("uploadToStream (tus)", () => {
  it("resumes from the offset Stream holds, in 8 MiB chunks, and after a failed chunk asks again where it stands", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    const size = 2 * STREAM_CHUNK_BYTES + 100;
    const bytes = new Uint8Array(size);
    for (let i = 0; i < size; i++) bytes[i] = i % 253;
    const file = new Blob([bytes]);
    const server = tinyTus(size, STREAM_CHUNK_BYTES, 1);
    const progress: number[] = [];

    const done = uploadToStream(file, URL_OF_UPLOAD, { onProgress: (fraction) => progress.push(fraction) });
    await vi.runAllTimersAsync();
    await done;

    expect(STREAM_CHUNK_BYTES).toBe(8 * MIB);
    expect(server.sent).toEqual([
      { method: "HEAD", offset: null, length: 0 },
      { method: "PATCH", offset: 8 * MIB, length: 8 * MIB },
      // The 503 kept 1 MiB: the client learns it and goes on from there, not from where it was.
      { method: "HEAD", offset: null, length: 0 },
      { method: "PATCH", offset: 9 * MIB, length: size - 9 * MIB },
    ]);
    expect(server.offset()).toBe(size);
    const received = Buffer.from(await new Blob(server.chunks).arrayBuffer());
    expect(received.equals(bytes.subarray(8 * MIB)), "Stream got the file's bytes after its offset").toBe(true);
    expect(progress[0]).toBeCloseTo(0.5, 2);
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it("stops at once when Stream refuses the URL (expired or used up)", async () => {
    const server = tinyTus(10, 0, 0, 404);
    await expect(uploadToStream(new Blob([new Uint8Array(10)]), URL_OF_UPLOAD)).rejects.toEqual(
      new StreamUploadError(404),
    );
    expect(vi.mocked(fetch)).toHaveBeenCalledTimes(1);
    expect(server.sent).toEqual([]);
  });
});
