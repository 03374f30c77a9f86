/**
 * A local fake of the Cloudflare Stream HTTP API, as a fetch handler: exactly the calls the app and its operator make
 * (docs/decisions/video-in-cloudflare-stream.md), each checked as Stream documents it, so that a request Stream
 * would refuse fails here too.
 *
 * - POST {api}/accounts/{account}/stream/keys: the signing key, once (id, pem and jwk, each base64 as Stream sends).
 * - POST {api}/accounts/{account}/stream?direct_user=true with Tus-Resumable, Upload-Length and Upload-Metadata
 *   (maxDurationSeconds, requiresignedurls, expiry): 201, Location (the one-time tus URL) and stream-media-id.
 * - HEAD and PATCH of that tus URL (no API token: it is the uploader's browser): Upload-Offset; chunks of at least
 *   5 MiB in multiples of 256 KiB but the last, at the offset the fake holds (else 409).
 * - GET {api}/accounts/{account}/stream/{uid}: readyToStream, status.state, duration, input width and height.
 * - DELETE {api}/accounts/{account}/stream/{uid}.
 * The API calls need `Authorization: Bearer <token>`. A video is "pendingupload" until its last byte, then
 * "inprogress" until the test calls `process` (or `refuse`).
 */

const KIB = 1024;
const MIN_CHUNK = 5 * KIB * KIB;
const CHUNK_MULTIPLE = 256 * KIB;
const MAX_EXPIRY_MS = 6 * 60 * 60 * 1000;

export interface FakeStreamVideo {
  uid: string;
  length: number;
  received: Uint8Array[];
  offset: number;
  maxDurationSeconds: number;
  requireSignedURLs: boolean;
  expiry: string | null;
  state: "pendingupload" | "inprogress" | "ready" | "error";
  duration: number;
  width: number;
  height: number;
}

interface Call {
  method: string;
  url: string;
  status: number;
}

const json = (body: unknown, status = 200) => Response.json(body, { status });
const failure = (status: number, text: string) =>
  json({ success: false, errors: [{ code: 10000 + status, message: text }], messages: [], result: null }, status);
const success = (result: unknown) => json({ success: true, errors: [], messages: [], result });

const base64Of = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const base64urlDecode = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

/** The PKCS#1 RSAPrivateKey inside a PKCS#8 PrivateKeyInfo: the content of its OCTET STRING. */
function pkcs1Of(pkcs8: Uint8Array): Uint8Array {
  let at = 0;
  const header = () => {
    const tag = pkcs8[at++]!;
    let length = pkcs8[at++]!;
    if (length & 0x80) {
      const octets = length & 0x7f;
      length = 0;
      for (let i = 0; i < octets; i++) length = length * 256 + pkcs8[at++]!;
    }
    return { tag, length };
  };
  header(); // PrivateKeyInfo SEQUENCE: step into it
  const skip = () => {
    const { length } = header();
    at += length;
  };
  skip(); // version INTEGER
  skip(); // AlgorithmIdentifier SEQUENCE
  const key = header();
  if (key.tag !== 0x04) throw new Error("not PKCS#8");
  return pkcs8.slice(at, at + key.length);
}

/** Parses "key base64,flag,key base64" (tus Upload-Metadata). */
function metadataOf(header: string | null): Map<string, string | null> | null {
  if (header === null) return null;
  const entries = new Map<string, string | null>();
  for (const pair of header.split(",")) {
    const [key, value, extra] = pair.split(" ");
    if (!key || extra !== undefined) return null;
    try {
      entries.set(key, value === undefined ? null : atob(value));
    } catch {
      return null;
    }
  }
  return entries;
}

export class FakeStream {
  readonly videos = new Map<string, FakeStreamVideo>();
  readonly calls: Call[] = [];
  readonly deleted: string[] = [];
  private keyPair: CryptoKeyPair | null = null;
  private keyId: string | null = null;
  private readonly prefix: string;
  private readonly tusPrefix: string;

  /** `apiUrl` as CF_STREAM_API_URL names it; the tus URLs are on the same host. */
  constructor(
    readonly apiUrl: string,
    readonly accountId: string,
    readonly apiToken: string,
  ) {
    this.prefix = `${apiUrl}/accounts/${accountId}/stream`;
    this.tusPrefix = `${new URL(apiUrl).origin}/tus/`;
  }

  /** Whether a request is for this fake (anything else goes elsewhere). */
  handles(url: string): boolean {
    return url.startsWith(new URL(this.apiUrl).origin + "/");
  }

  /** The fetch handler. */
  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const response = await this.answer(request);
    this.calls.push({ method: request.method, url: request.url, status: response.status });
    return response;
  };

  /** Stream finished encoding the video: it is ready to stream, `duration` seconds long. */
  process(uid: string, video: { duration: number; width: number; height: number }) {
    const stored = this.video(uid);
    if (stored.state !== "inprogress") throw new Error(`video ${uid} is ${stored.state}, not received whole`);
    Object.assign(stored, video, { state: "ready" });
  }

  /** Stream could not encode the video (or it was longer than its maxDurationSeconds). */
  refuse(uid: string) {
    this.video(uid).state = "error";
  }

  /** The bytes Stream received for a video. */
  bytesOf(uid: string): Uint8Array<ArrayBuffer> {
    const { received, offset } = this.video(uid);
    const whole = new Uint8Array(offset);
    let at = 0;
    for (const chunk of received) {
      whole.set(chunk, at);
      at += chunk.length;
    }
    return whole;
  }

  /** Checks a playback token as Stream would: RS256 with the key made here; answers its claims. */
  async verifyToken(token: string): Promise<{ sub: string; kid: string; exp: number }> {
    const [header, claims, signature] = token.split(".");
    if (!header || !claims || !signature || !this.keyPair) throw new Error("not a token of this Stream");
    const { alg, kid } = JSON.parse(new TextDecoder().decode(base64urlDecode(header))) as { alg: string; kid: string };
    if (alg !== "RS256" || kid !== this.keyId) throw new Error(`token header ${alg} ${kid}`);
    const valid = await crypto.subtle.verify(
      "RSASSA-PKCS1-v1_5",
      this.keyPair.publicKey,
      base64urlDecode(signature),
      new TextEncoder().encode(`${header}.${claims}`),
    );
    if (!valid) throw new Error("token signature does not verify");
    return JSON.parse(new TextDecoder().decode(base64urlDecode(claims))) as { sub: string; kid: string; exp: number };
  }

  private video(uid: string): FakeStreamVideo {
    const video = this.videos.get(uid);
    if (!video) throw new Error(`no video ${uid}`);
    return video;
  }

  private async answer(request: Request): Promise<Response> {
    const url = request.url;
    if (url.startsWith(this.tusPrefix)) return this.tus(request, url.slice(this.tusPrefix.length).split("?")[0]!);
    if (!url.startsWith(this.prefix)) return failure(404, "No route for that URI");
    if (request.headers.get("Authorization") !== `Bearer ${this.apiToken}`) return failure(403, "Authentication error");
    const path = new URL(url).pathname.slice(new URL(this.prefix).pathname.length);
    if (request.method === "POST" && path === "/keys") return this.makeKey();
    if (request.method === "POST" && path === "" && new URL(url).searchParams.get("direct_user") === "true")
      return this.createUpload(request);
    const uid = /^\/([0-9a-f]{32})$/.exec(path)?.[1];
    if (!uid) return failure(404, "No route for that URI");
    const video = this.videos.get(uid);
    if (!video) return failure(404, "Not Found");
    if (request.method === "GET") {
      return success({
        uid,
        readyToStream: video.state === "ready",
        requireSignedURLs: video.requireSignedURLs,
        maxDurationSeconds: video.maxDurationSeconds,
        status: { state: video.state },
        duration: video.state === "ready" ? video.duration : -1,
        input: video.state === "ready" ? { width: video.width, height: video.height } : { width: -1, height: -1 },
      });
    }
    if (request.method === "DELETE") {
      this.videos.delete(uid);
      this.deleted.push(uid);
      return new Response(null, { status: 200 });
    }
    return failure(405, "Method not allowed");
  }

  private async makeKey(): Promise<Response> {
    this.keyPair = (await crypto.subtle.generateKey(
      { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
      true,
      ["sign", "verify"],
    )) as CryptoKeyPair;
    this.keyId = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
    const pkcs8 = new Uint8Array((await crypto.subtle.exportKey("pkcs8", this.keyPair.privateKey)) as ArrayBuffer);
    const lines = base64Of(pkcs1Of(pkcs8))
      .match(/.{1,64}/g)!
      .join("\n");
    const pem = `-----BEGIN RSA PRIVATE KEY-----\n${lines}\n-----END RSA PRIVATE KEY-----\n`;
    const jwk = {
      use: "sig",
      ...((await crypto.subtle.exportKey("jwk", this.keyPair.privateKey)) as JsonWebKey),
      kid: this.keyId,
      alg: "RS256",
    };
    return success({
      id: this.keyId,
      pem: btoa(pem),
      jwk: btoa(JSON.stringify(jwk)),
      created: new Date().toISOString(),
    });
  }

  private createUpload(request: Request): Response {
    if (request.headers.get("Tus-Resumable") !== "1.0.0") return failure(400, "Tus-Resumable must be 1.0.0");
    const length = Number(request.headers.get("Upload-Length"));
    if (!Number.isSafeInteger(length) || length <= 0) return failure(400, "Upload-Length is required");
    const metadata = metadataOf(request.headers.get("Upload-Metadata"));
    if (!metadata) return failure(400, "Upload-Metadata is malformed");
    const maxDurationSeconds = Number(metadata.get("maxDurationSeconds"));
    if (!Number.isInteger(maxDurationSeconds) || maxDurationSeconds < 1 || maxDurationSeconds > 21600)
      return failure(400, "maxDurationSeconds must be between 1 and 21600");
    const expiry = metadata.get("expiry") ?? null;
    if (expiry !== null) {
      const at = Date.parse(expiry);
      if (
        !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(expiry) ||
        !(at - Date.now() >= 2 * 60_000) ||
        at - Date.now() > MAX_EXPIRY_MS
      )
        return failure(400, "expiry must be RFC 3339, 2 minutes to 6 hours ahead");
    }
    const uid = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
    this.videos.set(uid, {
      uid,
      length,
      received: [],
      offset: 0,
      maxDurationSeconds,
      requireSignedURLs: metadata.has("requiresignedurls"),
      expiry,
      state: "pendingupload",
      duration: -1,
      width: -1,
      height: -1,
    });
    return new Response(null, {
      status: 201,
      headers: { Location: `${this.tusPrefix}${uid}?tusv2=true`, "stream-media-id": uid, "Tus-Resumable": "1.0.0" },
    });
  }

  private async tus(request: Request, uid: string): Promise<Response> {
    const video = this.videos.get(uid);
    if (!video) return new Response(null, { status: 404 });
    if (request.headers.get("Tus-Resumable") !== "1.0.0") return new Response(null, { status: 412 });
    const offsetHeaders = { "Tus-Resumable": "1.0.0", "Upload-Offset": String(video.offset) };
    if (request.method === "HEAD")
      return new Response(null, {
        status: 200,
        headers: { ...offsetHeaders, "Upload-Length": String(video.length), "Cache-Control": "no-store" },
      });
    if (request.method !== "PATCH") return new Response(null, { status: 405 });
    if (request.headers.get("Content-Type") !== "application/offset+octet-stream")
      return new Response(null, { status: 415 });
    if (Number(request.headers.get("Upload-Offset")) !== video.offset)
      return new Response(null, { status: 409, headers: offsetHeaders });
    const chunk = new Uint8Array(await request.arrayBuffer());
    const end = video.offset + chunk.length;
    const last = end === video.length;
    if (end > video.length || chunk.length === 0) return new Response(null, { status: 400 });
    if (!last && (chunk.length < MIN_CHUNK || chunk.length % CHUNK_MULTIPLE !== 0))
      return new Response("chunk size must be at least 5 MiB and a multiple of 256 KiB", { status: 400 });
    video.received.push(chunk);
    video.offset = end;
    if (last) video.state = "inprogress";
    return new Response(null, {
      status: 204,
      headers: { "Tus-Resumable": "1.0.0", "Upload-Offset": String(video.offset) },
    });
  }
}
