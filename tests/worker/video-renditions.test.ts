import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { PostView } from "@shared/contracts/posts";
import type { RenditionView } from "@shared/contracts/renditions";
import type { StoryView } from "@shared/contracts/stories";
import type { UploadStatus } from "@shared/contracts/uploads";
import { buildJpeg } from "../support/media-fixtures";
import { VIDEOS } from "../support/video-fixtures";
import type { MessagePage, MessageView } from "@shared/contracts/messages";
import { api, createUser, postJson } from "./factories";
import { createFan, createVerifiedCreator, fundWallet, newKey } from "./money-fixtures";
import { block, follow, makeCreator, subscribe } from "./timeline-fixtures";

/**
 * Renditions of a video through the real upload API: made by the uploader's browser, checked by their bytes when
 * complete (tests/fixtures/video: tiny real files), served by /media under exactly the original's rule, presented
 * with the post, and deleted with it.
 */

type Person = Awaited<ReturnType<typeof createUser>>;

const putBytes = (path: string, bytes: Uint8Array, token: string) =>
  api(path, {
    method: "PUT",
    body: new Uint8Array(bytes),
    token,
    headers: { "Content-Type": "application/octet-stream" },
  });

/** An original video uploaded whole but not completed (the composer completes it last), with its poster and preview. */
async function uploadOriginal(person: Person, bytes: Uint8Array, purpose: "post" | "message" | "story" = "post") {
  const started = await postJson(
    "/uploads",
    { purpose, fileName: "v.mp4", contentType: "video/mp4", size: bytes.length },
    { token: person.token },
  );
  expect(started.status).toBe(201);
  const { mediaId } = (await started.json()) as { mediaId: number };
  expect((await putBytes(`/uploads/${mediaId}/parts/1`, bytes, person.token)).status).toBe(200);
  for (const variant of ["poster", "preview"])
    expect((await putBytes(`/uploads/${mediaId}/${variant}`, buildJpeg(), person.token)).status).toBe(200);
  return mediaId;
}

const completeOriginal = async (person: Person, mediaId: number) =>
  expect((await postJson(`/uploads/${mediaId}/complete`, {}, { token: person.token })).status).toBe(200);

/** Starts a rendition and sends its one part; answers the part's response. */
async function sendRendition(
  person: Person,
  mediaId: number,
  name: "360p" | "720p",
  bytes: Uint8Array,
  contentType = "video/mp4",
) {
  const started = await postJson(
    `/uploads/${mediaId}/renditions/${name}`,
    { contentType, size: bytes.length },
    { token: person.token },
  );
  expect(started.status).toBe(201);
  expect(await started.json()).toEqual({
    mediaId,
    partSize: 8 * 1024 * 1024,
    partCount: 1,
    stream: null,
    watermark: null,
  });
  return putBytes(`/uploads/${mediaId}/renditions/${name}/parts/1`, bytes, person.token);
}

const completeRendition = (person: Person, mediaId: number, name: "360p" | "720p") =>
  postJson(`/uploads/${mediaId}/renditions/${name}/complete`, {}, { token: person.token });

async function uploadRendition(
  person: Person,
  mediaId: number,
  name: "360p" | "720p",
  bytes: Uint8Array,
  contentType = "video/mp4",
) {
  expect((await sendRendition(person, mediaId, name, bytes, contentType)).status).toBe(200);
  return completeRendition(person, mediaId, name);
}

/** A /media URL as someone sees it (no token: a visitor); reads the body to its end. */
async function fetchMedia(url: string, token?: string, headers: Record<string, string> = {}) {
  const response = await SELF.fetch(`https://app.test${url}`, {
    headers: { ...headers, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });
  const body = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, body };
}

const renditionRows = () =>
  env.DB.prepare("SELECT media_id, name, status, object_key FROM media_renditions ORDER BY media_id, name").all<{
    media_id: number;
    name: string;
    status: string;
    object_key: string;
  }>();
const storedRenditionKeys = async () =>
  [
    ...(await env.MEDIA.list({ prefix: "renditions/" })).objects,
    ...(await env.MEDIA.list({ prefix: "stories/renditions/" })).objects,
  ].map((object) => object.key);

const bitrateOf = (bytes: Uint8Array, durationMs: number) => Math.round((bytes.length * 8 * 1000) / durationMs);

/** A creator's video post with a 360p MP4 and a 720p WebM rendition, and a person of every kind around it. */
async function seedVideoPost(audience: "subscribers" | "everyone") {
  const creator = await makeCreator();
  const [subscriber, follower, visitor, blocked] = [await createUser(), await createUser(), null, await createUser()];
  await subscribe(subscriber.user.userId, creator.user.userId);
  await follow(follower.user.userId, creator.user.userId);
  await follow(blocked.user.userId, creator.user.userId);
  await block(creator.user.userId, blocked.user.userId);

  const mediaId = await uploadOriginal(creator, VIDEOS.fastStartMp4);
  expect((await uploadRendition(creator, mediaId, "360p", VIDEOS.fastStartMp4)).status).toBe(200);
  const webm = await uploadRendition(creator, mediaId, "720p", VIDEOS.vp9OpusWebm, "video/webm");
  expect(webm.status).toBe(200);
  await completeOriginal(creator, mediaId);
  const created = await postJson("/posts", { text: "a clip", audience, mediaIds: [mediaId] }, { token: creator.token });
  expect(created.status).toBe(201);
  const post = (await created.json()) as PostView;
  return { creator, subscriber, follower, visitor, blocked, mediaId, post };
}

const postAs = async (postId: number, token?: string) => {
  const response = await api(`/posts/${postId}`, { token });
  return { status: response.status, text: await response.clone().text(), body: (await response.json()) as PostView };
};

describe("video renditions", () => {
  it("are uploaded in parts, listed for resuming, checked, and presented lowest first with their types and bitrates", async () => {
    const creator = await makeCreator();
    const mediaId = await uploadOriginal(creator, VIDEOS.fastStartMp4);
    expect((await sendRendition(creator, mediaId, "360p", VIDEOS.fastStartMp4)).status).toBe(200);
    const status = (await (await api(`/uploads/${mediaId}`, { token: creator.token })).json()) as UploadStatus;
    expect(status.renditions).toEqual([
      { name: "360p", status: "uploading", size: VIDEOS.fastStartMp4.length, partCount: 1, receivedParts: [1] },
    ]);

    const mp4 = await completeRendition(creator, mediaId, "360p");
    expect(mp4.status).toBe(200);
    const mp4View = (await mp4.json()) as RenditionView;
    expect(mp4View).toEqual({
      name: "360p",
      url: expect.stringMatching(/^\/media\/renditions\/[0-9a-f]{32}\.mp4$/),
      type: 'video/mp4; codecs="avc1.42c01e,mp4a.40.2"',
      width: 320,
      height: 180,
      bitrate: bitrateOf(VIDEOS.fastStartMp4, 2000),
    });
    // Completing again answers the same rendition.
    expect(await (await completeRendition(creator, mediaId, "360p")).json()).toEqual(mp4View);
    const webm = await uploadRendition(creator, mediaId, "720p", VIDEOS.vp9OpusWebm, "video/webm");
    const webmView = (await webm.json()) as RenditionView;
    expect(webmView).toMatchObject({ type: 'video/webm; codecs="vp09.00.10.08,opus"', width: 320, height: 180 });

    await completeOriginal(creator, mediaId);
    // The original's length, read from its header when it completed.
    expect(await env.DB.prepare("SELECT duration_ms FROM media WHERE id = ?").bind(mediaId).first("duration_ms")).toBe(
      2000,
    );
    const after = (await (await api(`/uploads/${mediaId}`, { token: creator.token })).json()) as UploadStatus;
    expect(after.renditions.map((r) => [r.name, r.status, r.receivedParts])).toEqual([
      ["360p", "ready", []],
      ["720p", "ready", []],
    ]);
    const created = await postJson(
      "/posts",
      { text: "clip", audience: "everyone", mediaIds: [mediaId] },
      {
        token: creator.token,
      },
    );
    const post = (await created.json()) as PostView;
    expect(post.media![0]!.renditions).toEqual([mp4View, webmView]);
    expect(post.media![0]!.hlsUrl).toBeNull();
  });

  it("are served under exactly the original's rule: a locked post's to its owner and subscribers only", async () => {
    const seeded = await seedVideoPost("subscribers");
    const { creator, subscriber, follower, blocked, post } = seeded;
    const ownView = (await postAs(post.id, creator.token)).body;
    const media = ownView.media![0]!;
    const preview =
      ownView.previews[0]?.previewUrl ?? (await postAs(post.id, follower.token)).body.previews[0]!.previewUrl!;
    const locked = [media.url, media.posterUrl!, ...media.renditions.map((r) => r.url)];
    expect(media.renditions).toHaveLength(2);

    for (const [who, token, opens] of [
      ["owner", creator.token, true],
      ["subscriber", subscriber.token, true],
      ["follower", follower.token, false],
      ["visitor", undefined, false],
    ] as const) {
      for (const url of locked) expect((await fetchMedia(url, token)).status, `${who} ${url}`).toBe(opens ? 200 : 404);
      expect((await fetchMedia(preview, token)).status, `${who} preview`).toBe(200);
      const seen = await postAs(post.id, token);
      if (opens) expect(seen.body.media![0]!.renditions.map((r) => r.url)).toEqual(media.renditions.map((r) => r.url));
      else {
        expect(seen.body.media).toBeNull();
        expect(seen.body.previews).toEqual([{ kind: "video", previewUrl: preview }]);
        for (const url of locked) expect(seen.text).not.toContain(url.slice("/media/".length));
      }
    }
    for (const url of [...locked, preview]) expect((await fetchMedia(url, blocked.token)).status).toBe(404);
    expect((await postAs(post.id, blocked.token)).status).toBe(404);

    // Opened to everyone, the same renditions reach the follower and the visitor; never the blocked member.
    await env.DB.prepare("UPDATE posts SET audience = 'everyone' WHERE id = ?").bind(post.id).run();
    for (const token of [follower.token, undefined])
      for (const url of locked) expect((await fetchMedia(url, token)).status).toBe(200);
    for (const url of locked) expect((await fetchMedia(url, blocked.token)).status).toBe(404);
  });

  it("answer a Range with 206 and its Content-Range", async () => {
    const { subscriber, post } = await seedVideoPost("subscribers");
    const rendition = (await postAs(post.id, subscriber.token)).body.media![0]!.renditions[0]!;
    const ranged = await fetchMedia(rendition.url, subscriber.token, { Range: "bytes=100-1123" });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("Content-Range")).toBe(`bytes 100-1123/${VIDEOS.fastStartMp4.length}`);
    expect(ranged.headers.get("Content-Type")).toBe("video/mp4");
    expect(ranged.body).toEqual(VIDEOS.fastStartMp4.slice(100, 1124));
    const whole = await fetchMedia(rendition.url, subscriber.token);
    expect(whole.body).toEqual(VIDEOS.fastStartMp4);
  });

  it("an unfinished rendition is not served, even to its uploader, and is not presented", async () => {
    const creator = await makeCreator();
    const mediaId = await uploadOriginal(creator, VIDEOS.fastStartMp4);
    expect((await sendRendition(creator, mediaId, "360p", VIDEOS.fastStartMp4)).status).toBe(200);
    await completeOriginal(creator, mediaId);
    const created = await postJson(
      "/posts",
      { text: "clip", audience: "everyone", mediaIds: [mediaId] },
      {
        token: creator.token,
      },
    );
    expect(((await created.json()) as PostView).media![0]!.renditions).toEqual([]);
    const { object_key } = (await renditionRows()).results[0]!;
    expect((await fetchMedia(`/media/${object_key}`, creator.token)).status).toBe(404);
  });

  it("a rendition that lies or breaks a bound is refused with 422 and leaves nothing stored", async () => {
    const creator = await makeCreator();
    const mediaId = await uploadOriginal(creator, VIDEOS.fastStartMp4);
    await completeOriginal(creator, mediaId);
    const refused = async (response: Response, message: string) => {
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({ message, errors: { file: [message] } });
      expect((await renditionRows()).results).toEqual([]);
      expect(await storedRenditionKeys()).toEqual([]);
    };

    // Declared MP4, WebM bytes: refused on the first part.
    await refused(
      await sendRendition(creator, mediaId, "360p", VIDEOS.vp9OpusWebm, "video/mp4"),
      "This file type is not supported.",
    );
    await refused(
      await uploadRendition(creator, mediaId, "360p", VIDEOS.hevcMp4),
      "A rendition must be H.264 with AAC in MP4, or VP9 or VP8 with Opus in WebM.",
    );
    await refused(
      await uploadRendition(creator, mediaId, "360p", VIDEOS.moovAtEndMp4),
      "An MP4 rendition must have its index at the start of the file (fast start).",
    );
    await refused(
      await uploadRendition(creator, mediaId, "360p", VIDEOS.fiveSecondsSilentMp4),
      "This rendition is not as long as the original video.",
    );

    // More bytes than 2 s at 360p's bound may have (1 Mbit/s over 3 s at most): refused before anything is stored.
    const tooLarge = await postJson(
      `/uploads/${mediaId}/renditions/360p`,
      { contentType: "video/mp4", size: 400_000 },
      {
        token: creator.token,
      },
    );
    expect(tooLarge.status).toBe(413);
    expect((await renditionRows()).results).toEqual([]);

    // 0.2 s of noise at 1.65 Mbit/s: within the size a 0.2 s video may declare, above the bitrate.
    const denseId = await uploadOriginal(creator, VIDEOS.denseMp4);
    await completeOriginal(creator, denseId);
    await refused(
      await uploadRendition(creator, denseId, "360p", VIDEOS.denseMp4),
      "This rendition uses more bits per second than its quality allows.",
    );
    // The same file is within 720p's bound.
    expect((await uploadRendition(creator, denseId, "720p", VIDEOS.denseMp4)).status).toBe(200);
  });

  it("a rendition finished before its original goes when the original turns out to be of another length", async () => {
    const creator = await makeCreator();
    const mediaId = await uploadOriginal(creator, VIDEOS.fiveSecondsSilentMp4);
    expect((await uploadRendition(creator, mediaId, "360p", VIDEOS.fastStartMp4)).status).toBe(200);
    expect(await storedRenditionKeys()).toHaveLength(1);
    await completeOriginal(creator, mediaId);
    expect((await renditionRows()).results).toEqual([]);
    expect(await storedRenditionKeys()).toEqual([]);
  });

  it("starting a rendition again replaces it and deletes the earlier one's bytes", async () => {
    const creator = await makeCreator();
    const mediaId = await uploadOriginal(creator, VIDEOS.fastStartMp4);
    expect((await uploadRendition(creator, mediaId, "360p", VIDEOS.fastStartMp4)).status).toBe(200);
    const [first] = await storedRenditionKeys();
    expect((await uploadRendition(creator, mediaId, "360p", VIDEOS.vp9OpusWebm, "video/webm")).status).toBe(200);
    const keys = await storedRenditionKeys();
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toBe(first);
    expect(keys[0]).toMatch(/\.webm$/);
  });

  it("only the uploader's post, chat and story videos have renditions", async () => {
    const creator = await makeCreator();
    const other = await makeCreator();
    const mediaId = await uploadOriginal(creator, VIDEOS.fastStartMp4);
    const start = (token: string, id = mediaId) =>
      postJson(`/uploads/${id}/renditions/360p`, { contentType: "video/mp4", size: 1000 }, { token });
    expect((await start(other.token)).status).toBe(404);
    const avatar = await postJson(
      "/uploads",
      { purpose: "avatar", fileName: "a.jpg", contentType: "image/jpeg", size: 100 },
      { token: creator.token },
    );
    const avatarId = ((await avatar.json()) as { mediaId: number }).mediaId;
    expect((await start(creator.token, avatarId)).status).toBe(422);
    expect(
      (
        await postJson(
          `/uploads/${mediaId}/renditions/1080p`,
          { contentType: "video/mp4", size: 1000 },
          {
            token: creator.token,
          },
        )
      ).status,
    ).toBe(422);
  });

  it("deleting the post keeps its video's renditions in the vault; deleting the video there deletes them", async () => {
    const { creator, post } = await seedVideoPost("everyone");
    expect(await storedRenditionKeys()).toHaveLength(2);
    expect((await api(`/posts/${post.id}`, { method: "DELETE", token: creator.token })).status).toBe(200);
    expect((await renditionRows()).results).toHaveLength(2);
    expect(await storedRenditionKeys()).toHaveLength(2);
    const mediaId = (await env.DB.prepare("SELECT id FROM media").first<number>("id"))!;
    expect((await api(`/vault/${mediaId}`, { method: "DELETE", token: creator.token })).status).toBe(204);
    expect((await renditionRows()).results).toEqual([]);
    expect(await storedRenditionKeys()).toEqual([]);
  });

  it("a story's renditions live under stories/, follow the story's rule, and stay in the vault after it", async () => {
    const creator = await makeCreator();
    const follower = await createUser();
    await follow(follower.user.userId, creator.user.userId);
    const mediaId = await uploadOriginal(creator, VIDEOS.fastStartMp4, "story");
    const rendition = (await (
      await uploadRendition(creator, mediaId, "360p", VIDEOS.fastStartMp4)
    ).json()) as RenditionView;
    expect(rendition.url).toMatch(/^\/media\/stories\/renditions\/[0-9a-f]{32}\.mp4$/);
    // Before the story exists, its uploader only.
    expect((await fetchMedia(rendition.url, follower.token)).status).toBe(404);
    expect((await fetchMedia(rendition.url, creator.token)).status).toBe(200);
    await completeOriginal(creator, mediaId);
    const created = await postJson("/stories", { mediaId, audience: "everyone" }, { token: creator.token });
    expect(created.status).toBe(201);
    const story = (await created.json()) as StoryView;
    expect(story.renditions).toEqual([rendition]);
    expect((await fetchMedia(rendition.url, follower.token)).status).toBe(200);
    expect((await fetchMedia(rendition.url)).status).toBe(404);

    expect((await api(`/stories/${story.id}`, { method: "DELETE", token: creator.token })).status).toBe(204);
    expect((await fetchMedia(rendition.url, follower.token)).status).toBe(404);
    expect(await storedRenditionKeys()).toHaveLength(1);
    expect((await api(`/vault/${mediaId}`, { method: "DELETE", token: creator.token })).status).toBe(204);
    expect(await storedRenditionKeys()).toEqual([]);
  });

  it("a pay-per-view message's renditions are the buyer's once bought, and nobody else's", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    const outsider = await createFan();
    await subscribe(fan.user.userId, creator.user.userId);
    await fundWallet(fan.user.userId, 2000);
    const started = await postJson("/conversations", { username: fan.user.username }, { token: creator.token });
    expect(started.status).toBe(200);
    const conversation = (await started.json()) as { id: number };
    const mediaId = await uploadOriginal(creator, VIDEOS.fastStartMp4, "message");
    const rendition = (await (
      await uploadRendition(creator, mediaId, "360p", VIDEOS.fastStartMp4)
    ).json()) as RenditionView;
    await completeOriginal(creator, mediaId);
    const sent = await postJson(
      `/conversations/${conversation.id}/messages`,
      { clientId: newKey(), text: "for you", mediaIds: [mediaId], priceCents: 500 },
      { token: creator.token },
    );
    expect(sent.status, await sent.clone().text()).toBe(200);
    const message = ((await sent.json()) as { message: MessageView }).message;
    expect(message.media[0]!.renditions).toEqual([rendition]);

    const fanSees = async () =>
      ((await (await api(`/conversations/${conversation.id}/messages`, { token: fan.token })).json()) as MessagePage)
        .messages[0]!.media[0]!;
    expect(await fanSees()).toMatchObject({ url: null, renditions: [], hlsUrl: null });
    expect((await fetchMedia(rendition.url, fan.token)).status).toBe(404);
    const unlocked = await postJson(
      `/messages/${message.id}/unlock`,
      { priceCents: 500, idempotencyKey: newKey() },
      { token: fan.token },
    );
    expect(unlocked.status).toBe(200);
    expect((await fanSees()).renditions).toEqual([rendition]);
    expect((await fetchMedia(rendition.url, fan.token)).status).toBe(200);
    expect((await fetchMedia(rendition.url, outsider.token)).status).toBe(404);
    expect((await fetchMedia(rendition.url)).status).toBe(404);
  });
});
