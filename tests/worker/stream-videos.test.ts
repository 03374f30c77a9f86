import { createExecutionContext, env } from "cloudflare:test";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { PostView } from "@shared/contracts/posts";
import type { CreatedUpload } from "@shared/contracts/uploads";
import { uploadToStream } from "../../app/lib/stream-upload";
import { config, type Env } from "../../worker/env";
import { streamHlsUrl } from "../../worker/domain/media/stream/playback";
import { FakeStream } from "../support/fake-stream";
import { buildJpeg } from "../support/media-fixtures";
import worker, { runScheduledJobsAndSettle } from "./entry";
import { createUser } from "./factories";
import { follow, makeCreator, subscribe } from "./timeline-fixtures";

const ACCOUNT = "0123456789abcdef0123456789abcdef";
const API_TOKEN = "stream-test-token";
const CUSTOMER_CODE = "f4k3c0de";
const fake = new FakeStream("https://stream.fake.test/client/v4", ACCOUNT, API_TOKEN);
const MIB = 1024 * 1024;

/** The signing key as an operator makes it once: POST …/stream/keys, its id, pem and jwk (base64). */
let key: { id: string; pem: string; jwk: string };
/** The Worker's bindings with VIDEO_PIPELINE=stream, pointed at the fake. */
let streamEnv: Env;

beforeAll(async () => {
  const made = await fake.fetch(`${fake.apiUrl}/accounts/${ACCOUNT}/stream/keys`, {
    method: "POST",
    headers: { Authorization: `Bearer ${API_TOKEN}` },
  });
  key = ((await made.json()) as { result: typeof key }).result;
  streamEnv = {
    ...env,
    VIDEO_PIPELINE: "stream",
    CF_ACCOUNT_ID: ACCOUNT,
    CF_STREAM_API_TOKEN: API_TOKEN,
    CF_STREAM_CUSTOMER_CODE: CUSTOMER_CODE,
    CF_STREAM_SIGNING_KEY_ID: key.id,
    CF_STREAM_SIGNING_KEY: key.pem,
    CF_STREAM_API_URL: fake.apiUrl,
  };
});

/** Everything the Worker (and the browser's tus client, run here) fetches from Stream reaches the fake. */
beforeEach(() => {
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) =>
    fake.handles(new Request(input).url) ? fake.fetch(input, init) : realFetch(input, init),
  );
});
afterEach(() => vi.restoreAllMocks());

/** The Worker's own fetch with the stream bindings (the test entry settles its waitUntil work before answering). */
function call(path: string, init: { method?: string; body?: unknown; token: string; raw?: Uint8Array<ArrayBuffer> }) {
  const headers = new Headers({ Authorization: `Bearer ${init.token}` });
  let body: BodyInit | undefined;
  if (init.raw) {
    headers.set("Content-Type", "application/octet-stream");
    body = init.raw;
  } else if (init.body !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(init.body);
  }
  const request = new Request(`https://app.test/api${path}`, { method: init.method ?? "GET", headers, body });
  return worker.fetch(request, streamEnv, createExecutionContext());
}

const mediaRow = (id: number) =>
  env.DB.prepare("SELECT status, stream_uid, upload_id, duration_ms, width, height FROM media WHERE id = ?")
    .bind(id)
    .first<{
      status: string;
      stream_uid: string | null;
      upload_id: string | null;
      duration_ms: number | null;
      width: number | null;
      height: number | null;
    }>();
const postStatus = async (id: number) =>
  (await env.DB.prepare("SELECT status FROM posts WHERE id = ?").bind(id).first<string>("status")) ?? null;

async function startVideo(token: string, size: number, purpose = "post") {
  const response = await call("/uploads", {
    method: "POST",
    token,
    body: { purpose, fileName: "clip.mp4", contentType: "video/mp4", size },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as CreatedUpload;
}

const digest = async (bytes: Uint8Array<ArrayBuffer>) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");

/** A video's bytes: 9 MiB, so that the tus client sends a full chunk and a last, shorter one. */
function videoBytes() {
  const bytes = new Uint8Array(9 * MIB);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + (i >> 12)) & 0xff;
  return bytes;
}

describe("videos in Cloudflare Stream (VIDEO_PIPELINE=stream)", () => {
  it("starts a video upload at Stream (tus, signed URLs required, its longest length) and keeps its id; images stay in R2", async () => {
    const creator = await makeCreator();
    const created = await startVideo(creator.token, 9 * MIB);
    expect(created.partCount).toBe(0);
    const uploadUrl = created.stream!.uploadUrl;
    const uid = /\/tus\/([0-9a-f]{32})\?/.exec(uploadUrl)![1]!;
    expect(fake.videos.get(uid)).toMatchObject({
      length: 9 * MIB,
      requireSignedURLs: true,
      maxDurationSeconds: 3 * 3600,
    });
    expect(await mediaRow(created.mediaId)).toMatchObject({ status: "uploading", stream_uid: uid, upload_id: null });

    const story = await startVideo(creator.token, 2 * MIB, "story");
    const storyUid = (await mediaRow(story.mediaId))!.stream_uid!;
    expect(fake.videos.get(storyUid)!.maxDurationSeconds).toBe(60);

    const image = await call("/uploads", {
      method: "POST",
      token: creator.token,
      body: { purpose: "post", fileName: "a.jpg", contentType: "image/jpeg", size: 1000 },
    });
    expect(await image.json()).toMatchObject({ partCount: 1, stream: null });
  });

  it("publishes a post once Stream has the video ready, and deletes the video with its vault item", async () => {
    const creator = await makeCreator();

    const bytes = videoBytes();
    const created = await startVideo(creator.token, bytes.length);
    const uid = (await mediaRow(created.mediaId))!.stream_uid!;
    const posted = await call("/posts", {
      method: "POST",
      token: creator.token,
      body: { text: "new clip", audience: "subscribers", mediaIds: [created.mediaId] },
    });
    expect(posted.status).toBe(201);
    const postId = ((await posted.json()) as PostView).id;
    expect(await postStatus(postId)).toBe("processing");
    // The poster frame the browser made still goes to R2.
    expect(
      (
        await call(`/uploads/${created.mediaId}/poster`, {
          method: "PUT",
          token: creator.token,
          raw: new Uint8Array(buildJpeg()),
        })
      ).status,
    ).toBe(200);

    // The browser's tus client sends the bytes to Stream itself; a reload resumes from Stream's offset.
    await uploadToStream(new Blob([bytes]), created.stream!.uploadUrl);
    expect(await digest(fake.bytesOf(uid))).toBe(await digest(bytes));

    // Stream is still encoding: the medium stays uploading and the post waits.
    const early = await call(`/uploads/${created.mediaId}/complete`, { method: "POST", token: creator.token });
    expect(early.status).toBe(200);
    expect(await mediaRow(created.mediaId)).toMatchObject({ status: "uploading" });
    expect(await postStatus(postId)).toBe("processing");
    await runScheduledJobsAndSettle(streamEnv);
    expect(await postStatus(postId)).toBe("processing");

    // Stream has finished: the next cron run completes the medium with Stream's figures and publishes the post.
    fake.process(uid, { duration: 12.34, width: 1280, height: 720 });
    await runScheduledJobsAndSettle(streamEnv);
    expect(await mediaRow(created.mediaId)).toMatchObject({
      status: "ready",
      duration_ms: 12340,
      width: 1280,
      height: 720,
    });
    expect(await postStatus(postId)).toBe("published");

    // Deleting the post keeps the video in the vault; deleting it there deletes it from Stream.
    expect((await call(`/posts/${postId}`, { method: "DELETE", token: creator.token })).status).toBe(200);
    expect(fake.videos.has(uid)).toBe(true);
    expect((await call(`/vault/${created.mediaId}`, { method: "DELETE", token: creator.token })).status).toBe(204);
    expect(fake.deleted).toContain(uid);
    expect(fake.videos.has(uid)).toBe(false);
  });

  it("gives a signed manifest to the owner and a subscriber, none to a follower of a subscribers-only post", async () => {
    const creator = await makeCreator();
    const subscriber = await createUser();
    const follower = await createUser();
    await subscribe(subscriber.user.userId, creator.user.userId);
    await follow(follower.user.userId, creator.user.userId);
    const created = await startVideo(creator.token, 3 * MIB);
    const uid = (await mediaRow(created.mediaId))!.stream_uid!;
    await uploadToStream(new Blob([new Uint8Array(3 * MIB)]), created.stream!.uploadUrl);
    fake.process(uid, { duration: 3, width: 640, height: 360 });
    const posted = await call("/posts", {
      method: "POST",
      token: creator.token,
      body: { text: "for subscribers", audience: "subscribers", mediaIds: [created.mediaId] },
    });
    const postId = ((await posted.json()) as PostView).id;
    expect((await call(`/uploads/${created.mediaId}/complete`, { method: "POST", token: creator.token })).status).toBe(
      200,
    );
    expect(await postStatus(postId)).toBe("published");

    const hlsUrlFor = async (token: string) => {
      const view = (await (await call(`/posts/${postId}`, { token })).json()) as PostView;
      return { view, hlsUrl: view.media?.[0]?.hlsUrl ?? null };
    };
    /** The page's stable address, answered by /media with a redirect to the manifest signed for this viewer. */
    const manifestFor = (token: string | null) =>
      worker.fetch(
        new Request(`https://app.test/media/stream/${uid}`, {
          headers: token ? { Authorization: `Bearer ${token}` } : {},
          redirect: "manual",
        }),
        streamEnv,
        createExecutionContext(),
      );
    for (const viewer of [creator, subscriber]) {
      const { hlsUrl } = await hlsUrlFor(viewer.token);
      expect(hlsUrl).toBe(`/media/stream/${uid}`);
      const answer = await manifestFor(viewer.token);
      expect(answer.status).toBe(302);
      expect(answer.headers.get("Cache-Control")).toBe("private, no-store");
      const location = answer.headers.get("Location");
      const match = new RegExp(
        `^https://customer-${CUSTOMER_CODE}\\.cloudflarestream\\.com/([^/]+)/manifest/video\\.m3u8$`,
      ).exec(location ?? "");
      expect(match, `manifest for ${viewer.user.username}: ${location}`).not.toBeNull();
      const claims = await fake.verifyToken(match![1]!);
      expect(claims.sub).toBe(uid);
      expect(claims.kid).toBe(key.id);
      expect(claims.exp).toBeGreaterThan(Date.now() / 1000 + 60);
      expect(claims.exp).toBeLessThanOrEqual(Date.now() / 1000 + 24 * 3600);
    }
    const locked = await hlsUrlFor(follower.token);
    expect(locked.view.lock).not.toBeNull();
    expect(JSON.stringify(locked.view)).not.toContain(uid);
    expect((await manifestFor(follower.token)).status).toBe(404);
    expect((await manifestFor(null)).status).toBe(404);
  });

  it("completes at once when Stream is already done, fails a video Stream refused, and fails one left unfinished for a day", async () => {
    const creator = await makeCreator();
    const quick = await startVideo(creator.token, 3 * MIB);
    const quickUid = (await mediaRow(quick.mediaId))!.stream_uid!;
    await uploadToStream(new Blob([new Uint8Array(3 * MIB)]), quick.stream!.uploadUrl);
    fake.process(quickUid, { duration: 4, width: 640, height: 360 });
    expect((await call(`/uploads/${quick.mediaId}/complete`, { method: "POST", token: creator.token })).status).toBe(
      200,
    );
    expect(await mediaRow(quick.mediaId)).toMatchObject({ status: "ready", duration_ms: 4000 });

    const refused = await startVideo(creator.token, 3 * MIB);
    const refusedUid = (await mediaRow(refused.mediaId))!.stream_uid!;
    fake.refuse(refusedUid);
    expect((await call(`/uploads/${refused.mediaId}/complete`, { method: "POST", token: creator.token })).status).toBe(
      422,
    );
    expect(await mediaRow(refused.mediaId)).toMatchObject({ status: "failed" });

    const abandoned = await startVideo(creator.token, 3 * MIB);
    const abandonedUid = (await mediaRow(abandoned.mediaId))!.stream_uid!;
    const posted = await call("/posts", {
      method: "POST",
      token: creator.token,
      body: { text: "never finished", audience: "everyone", mediaIds: [abandoned.mediaId] },
    });
    const postId = ((await posted.json()) as PostView).id;
    await env.DB.prepare("UPDATE media SET created_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 25 * 3600_000).toISOString(), abandoned.mediaId)
      .run();
    await runScheduledJobsAndSettle(streamEnv);
    expect(await mediaRow(abandoned.mediaId)).toMatchObject({ status: "failed" });
    expect(fake.deleted).toContain(abandonedUid);
    // The post stays in processing, where its author sees the file failed.
    expect(await postStatus(postId)).toBe("processing");
  });

  it("deletes the Stream video of an upload taken back", async () => {
    const creator = await makeCreator();
    const created = await startVideo(creator.token, 3 * MIB);
    const uid = (await mediaRow(created.mediaId))!.stream_uid!;
    expect((await call(`/uploads/${created.mediaId}`, { method: "DELETE", token: creator.token })).status).toBe(204);
    expect(fake.deleted).toContain(uid);
  });

  it("signs with the jwk form of the key too", async () => {
    const settings = config({ ...streamEnv, CF_STREAM_SIGNING_KEY: key.jwk });
    const url = (await streamHlsUrl(settings, "0123456789abcdef0123456789abcdef"))!;
    const claims = await fake.verifyToken(url.split("/")[3]!);
    expect(claims.sub).toBe("0123456789abcdef0123456789abcdef");
    expect(await streamHlsUrl(config(env), "0123456789abcdef0123456789abcdef")).toBeNull();
  });

  it("lets the page reach Stream's upload and playback hosts only in stream mode (CSP)", async () => {
    const csp = async (bindings: Env) => {
      const response = await worker.fetch(
        new Request("https://app.test/api/health"),
        bindings,
        createExecutionContext(),
      );
      return response.headers.get("Content-Security-Policy") ?? "";
    };
    const stream = await csp(streamEnv);
    const player = `https://customer-${CUSTOMER_CODE}.cloudflarestream.com`;
    expect(/connect-src [^;]+/.exec(stream)![0]).toBe(`connect-src 'self' https://stream.fake.test ${player}`);
    expect(/media-src [^;]+/.exec(stream)![0]).toBe(`media-src 'self' blob: ${player}`);
    expect(await csp({ ...streamEnv, CF_STREAM_API_URL: undefined })).toContain(
      `connect-src 'self' https://upload.videodelivery.net ${player}`,
    );
    const browser = await csp(env);
    expect(browser).not.toContain("cloudflarestream");
    expect(browser).not.toContain("videodelivery");
  });

  it("refuses a stream configuration that lacks what it needs, naming it", () => {
    expect(() => config({ ...env, VIDEO_PIPELINE: "stream" })).toThrow(
      "VIDEO_PIPELINE=stream needs CF_ACCOUNT_ID, CF_STREAM_API_TOKEN, CF_STREAM_CUSTOMER_CODE, CF_STREAM_SIGNING_KEY_ID and CF_STREAM_SIGNING_KEY (missing: CF_ACCOUNT_ID, CF_STREAM_API_TOKEN, CF_STREAM_CUSTOMER_CODE, CF_STREAM_SIGNING_KEY_ID, CF_STREAM_SIGNING_KEY)",
    );
    expect(() => config({ ...streamEnv, CF_STREAM_SIGNING_KEY_ID: undefined })).toThrow(
      /\(missing: CF_STREAM_SIGNING_KEY_ID\)/,
    );
    expect(() => config({ ...streamEnv, CF_STREAM_SIGNING_KEY: btoa("not a key") })).toThrow(
      /CF_STREAM_SIGNING_KEY must be/,
    );
    expect(() => config({ ...streamEnv, CF_STREAM_CUSTOMER_CODE: "customer-abc.cloudflarestream.com" })).toThrow(
      /CF_STREAM_CUSTOMER_CODE must be/,
    );
    expect(() => config({ ...streamEnv, VIDEO_PIPELINE: "mux" })).toThrow(/VIDEO_PIPELINE/);
  });
});
