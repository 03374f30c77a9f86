import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { HighlightView, StoriesBarItem, StoryReel, StoryView, StoryViewerItem } from "@shared/contracts/stories";
import type { StoryAudience } from "@shared/contracts/story-limits";
import { encodeCursor } from "@shared/cursor";
import { storiesBarStatement } from "../../worker/domain/stories/stories";
import { runScheduledJobs } from "../../worker/jobs";
import { devMailbox } from "../../worker/dev/mailbox";
import { config } from "../../worker/env";
import { expireStories } from "../../worker/jobs/expire-stories";
import { buildJpeg } from "../support/media-fixtures";
import { stopClockAt } from "./clock";
import { api, createUser, postJson } from "./factories";
import { block, follow, makeCreator, subscribe } from "./timeline-fixtures";

type Person = Awaited<ReturnType<typeof createUser>>;

/** A file uploaded through the real upload API with purpose "story". */
async function uploadStoryFile(person: Person, bytes: Uint8Array, contentType = "image/jpeg"): Promise<number> {
  const started = await postJson(
    "/uploads",
    { purpose: "story", fileName: "s.bin", contentType, size: bytes.length },
    { token: person.token },
  );
  expect(started.status).toBe(201);
  const { mediaId } = (await started.json()) as { mediaId: number };
  const part = await api(`/uploads/${mediaId}/parts/1`, {
    method: "PUT",
    body: new Uint8Array(bytes),
    token: person.token,
    headers: { "Content-Type": "application/octet-stream" },
  });
  expect(part.status).toBe(200);
  expect((await postJson(`/uploads/${mediaId}/complete`, {}, { token: person.token })).status).toBe(200);
  return mediaId;
}

async function postStory(
  creator: Person,
  body: Record<string, unknown> = {},
  bytes: Uint8Array = buildJpeg(),
): Promise<StoryView> {
  const mediaId = await uploadStoryFile(creator, bytes);
  const response = await postJson("/stories", { mediaId, audience: "everyone", ...body }, { token: creator.token });
  expect(response.status).toBe(201);
  return (await response.json()) as StoryView;
}

const bar = async (person: Person) =>
  ((await (await api("/stories", { token: person.token })).json()) as { creators: StoriesBarItem[] }).creators;
const reel = (person: Person, username: string) => api(`/stories/users/${username}`, { token: person.token });
const put = (path: string, body: unknown, token: string) =>
  api(path, { method: "PUT", token, body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });

describe("stories", () => {
  it("a creator posts a photo story; a follower sees it in the bar, unseen, then seen; the creator sees the viewer", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    const story = await postStory(creator, { text: "Hello fans" });
    expect(story).toMatchObject({
      kind: "image",
      text: "Hello fans",
      audience: "everyone",
      seen: true,
      own: { viewCount: 0, likeCount: 0 },
    });
    expect(story.url).toMatch(/^\/media\/stories\/[a-f0-9]{32}\.jpg$/);

    expect(await bar(fan)).toEqual([
      expect.objectContaining({
        creator: expect.objectContaining({ username: creator.user.username }),
        count: 1,
        unseen: 1,
      }),
    ]);
    const seenReel = (await (await reel(fan, creator.user.username)).json()) as StoryReel;
    expect(seenReel.stories.map((s) => [s.id, s.seen, s.own])).toEqual([[story.id, false, null]]);
    expect((await api(story.url.replace("/media", ""), { token: fan.token })).status).toBe(404); // /api has no media
    expect((await fetchMedia(story.url, fan.token)).status).toBe(200);

    expect((await postJson(`/stories/${story.id}/view`, {}, { token: fan.token })).status).toBe(204);
    expect((await postJson(`/stories/${story.id}/view`, {}, { token: fan.token })).status).toBe(204);
    expect((await bar(fan))[0]).toMatchObject({ count: 1, unseen: 0 });
    expect((await put(`/stories/${story.id}/like`, { liked: true }, fan.token)).status).toBe(200);

    const viewers = (await (await api(`/stories/${story.id}/viewers`, { token: creator.token })).json()) as {
      viewers: StoryViewerItem[];
      viewCount: number;
      likeCount: number;
    };
    expect(viewers).toMatchObject({ viewCount: 1, likeCount: 1 });
    expect(viewers.viewers.map((v) => [v.user.username, v.liked])).toEqual([[fan.user.username, true]]);
    // Only the creator reads the viewers list.
    expect((await api(`/stories/${story.id}/viewers`, { token: fan.token })).status).toBe(404);
  });

  it("a photo story's small poster, made by the uploader's browser, is its highlight's cover; a post's photo takes no poster", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    const mediaId = await uploadStoryFile(creator, buildJpeg({ width: 1080, height: 1920 }));
    const poster = await octets(`/uploads/${mediaId}/poster`, buildJpeg({ width: 240, height: 427 }), creator.token);
    expect(poster.status).toBe(200);
    const { url: posterUrl } = (await poster.json()) as { url: string };
    expect(posterUrl).toMatch(/^\/media\/stories\/posters\/[a-f0-9]{32}\.jpg$/);
    const created = await postJson("/stories", { mediaId, audience: "everyone" }, { token: creator.token });
    const story = (await created.json()) as StoryView;
    expect((await put(`/stories/${story.id}/highlight`, { title: "Sunsets" }, creator.token)).status).toBe(200);
    const highlights = (
      (await (await api(`/users/${creator.user.username}/highlights`, { token: fan.token })).json()) as {
        highlights: HighlightView[];
      }
    ).highlights;
    expect(highlights.map((h) => h.coverUrl)).toEqual([posterUrl]);
    expect((await fetchMedia(posterUrl, fan.token)).status).toBe(200);

    const post = await postJson(
      "/uploads",
      { purpose: "post", fileName: "p.jpg", contentType: "image/jpeg", size: 100 },
      { token: creator.token },
    );
    const { mediaId: postMediaId } = (await post.json()) as { mediaId: number };
    expect((await octets(`/uploads/${postMediaId}/poster`, buildJpeg(), creator.token)).status).toBe(422);
  });

  it("audience, blocks and suspension decide who sees a story, its file and its place in the bar", async () => {
    const creator = await makeCreator();
    const [follower, subscriber, stranger, blocked] = await Promise.all([
      createUser(),
      createUser(),
      createUser(),
      createUser(),
    ]);
    await follow(follower.user.userId, creator.user.userId);
    await subscribe(subscriber.user.userId, creator.user.userId);
    await follow(blocked.user.userId, creator.user.userId);
    await block(creator.user.userId, blocked.user.userId);
    const open = await postStory(creator, { audience: "everyone" });
    const forFollowers = await postStory(creator, { audience: "followers" });
    const forSubscribers = await postStory(creator, { audience: "subscribers" });

    const ids = async (person: Person) => {
      const response = await reel(person, creator.user.username);
      return response.status === 404 ? [] : ((await response.json()) as StoryReel).stories.map((s) => s.id);
    };
    expect(await ids(subscriber)).toEqual([open.id, forFollowers.id, forSubscribers.id]);
    expect(await ids(follower)).toEqual([open.id, forFollowers.id]);
    expect(await ids(stranger)).toEqual([open.id]);
    expect(await ids(blocked)).toEqual([]);
    expect((await bar(follower))[0]).toMatchObject({ count: 2, unseen: 2 });
    expect(await bar(blocked)).toEqual([]);

    for (const [person, story, status] of [
      [follower, forSubscribers, 404],
      [follower, forFollowers, 200],
      [stranger, forFollowers, 404],
      [blocked, open, 404],
      [subscriber, forSubscribers, 200],
      [creator, forSubscribers, 200],
    ] as const) {
      expect((await fetchMedia(story.url, person.token)).status, `${story.audience} file`).toBe(status);
      expect(
        (await postJson(`/stories/${story.id}/view`, {}, { token: person.token })).status,
        `${story.audience} view`,
      ).toBe(status === 200 ? 204 : 404);
    }
    expect((await fetchMedia(open.url, null)).status).toBe(404);

    await env.DB.prepare("UPDATE users SET suspended_at = ? WHERE id = ?")
      .bind(new Date().toISOString(), creator.user.userId)
      .run();
    expect(await ids(subscriber)).toEqual([]);
    expect((await fetchMedia(open.url, subscriber.token)).status).toBe(404);
  });

  it("expires after 24 hours unless kept in a highlight; the cron deletes each expired story and its file once", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    const start = new Date("2026-06-01T12:00:00.000Z");
    stopClockAt(start);
    const gone = await postStory(creator);
    const kept = await postStory(creator);
    const keep = await put(`/stories/${kept.id}/highlight`, { title: "Best of" }, creator.token);
    expect(keep.status).toBe(200);
    const { highlightId } = (await keep.json()) as { highlightId: number };
    const goneKey = gone.url.replace("/media/", "");
    const keptKey = kept.url.replace("/media/", "");

    stopClockAt(new Date(start.getTime() + 24 * 3600_000 + 1000));
    // Past 24 hours: not in the bar, not playable, even before the cron runs.
    expect(await bar(fan)).toEqual([]);
    expect((await fetchMedia(gone.url, fan.token)).status).toBe(404);

    const first = await expireStories.run({
      env,
      db: env.DB,
      defer: () => undefined,
      publish: () => undefined,
      mailer: devMailbox(env, config(env)),
    });
    const second = await expireStories.run({
      env,
      db: env.DB,
      defer: () => undefined,
      publish: () => undefined,
      mailer: devMailbox(env, config(env)),
    });
    expect(first.expired).toBeGreaterThanOrEqual(1);
    expect(second.expired).toBe(0);
    expect(await env.DB.prepare("SELECT id FROM stories WHERE id = ?").bind(gone.id).first()).toBeNull();
    // The file stays in the vault (docs/decisions/vault.md), but no story shows it any more.
    expect(await env.MEDIA.head(goneKey)).not.toBeNull();
    expect((await fetchMedia(gone.url, fan.token)).status).toBe(404);
    expect(await env.MEDIA.head(keptKey)).not.toBeNull();

    // The highlight is still on the profile and plays.
    const highlights = (
      (await (await api(`/users/${creator.user.username}/highlights`, { token: fan.token })).json()) as {
        highlights: HighlightView[];
      }
    ).highlights;
    expect(highlights).toEqual([{ id: highlightId, title: "Best of", count: 1, coverUrl: kept.url }]);
    const played = (await (await api(`/highlights/${highlightId}`, { token: fan.token })).json()) as StoryReel;
    expect(played.stories.map((s) => s.id)).toEqual([kept.id]);
    expect((await fetchMedia(kept.url, fan.token)).status).toBe(200);
    void runScheduledJobs;
  });
});

// ——— Helpers of the blocks below ———

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

interface ErrorBody {
  message: string;
  errors: Record<string, string[]>;
}

/** The answer is exactly this refusal: its status and its (English) message, and the field it names, if any. */
async function expectRefused(response: Response, status: number, message: string, field?: string) {
  const body = (await response.json()) as ErrorBody;
  expect({ status: response.status, message: body.message }).toEqual({ status, message });
  if (field) expect(body.errors[field]).toEqual([message]);
}

const del = (path: string, token?: string) => api(path, { method: "DELETE", token });
const octets = (path: string, bytes: Uint8Array, token: string) =>
  api(path, {
    method: "PUT",
    body: new Uint8Array(bytes),
    token,
    headers: { "Content-Type": "application/octet-stream" },
  });
const keyOf = (url: string) => url.replace("/media/", "");

/** /media's status for this viewer (the body read, so nothing is left open). */
async function mediaStatus(url: string, token: string | null) {
  const response = await fetchMedia(url, token);
  await response.arrayBuffer();
  return response.status;
}

const concat = (...parts: (Uint8Array | number[])[]) => Uint8Array.from(parts.flatMap((part) => [...part]));
const u32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
const zeros = (n: number) => new Array<number>(n).fill(0);
const box = (type: string, ...payload: (Uint8Array | number[])[]) => {
  const body = concat(...payload);
  return concat(u32(8 + body.length), ascii(type), body);
};

/** A minimal MP4: 'ftyp' (brand isom), 'moov' with a version-0 'mvhd' stating `duration` in `timescale` units, 'mdat'. */
function buildMp4(duration: number, timescale = 1000): Uint8Array {
  const mvhd = box(
    "mvhd",
    [0, 0, 0, 0],
    u32(0),
    u32(0),
    u32(timescale),
    u32(duration),
    u32(0x00010000),
    [1, 0],
    zeros(10),
    zeros(36),
    zeros(24),
    u32(2),
  );
  return concat(
    box("ftyp", ascii("isom"), u32(0x200), ascii("isom"), ascii("mp41")),
    box("moov", mvhd),
    box("mdat", zeros(64)),
  );
}

/** A WebM as MediaRecorder writes it: EBML header, a Segment of unknown size, an Info with no Duration, a Cluster. */
function buildWebmWithoutDuration(): Uint8Array {
  const element = (id: number[], payload: number[]) => [...id, 0x80 | payload.length, ...payload];
  return concat(
    element([0x1a, 0x45, 0xdf, 0xa3], element([0x42, 0x82], ascii("webm"))),
    [0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
    element(
      [0x15, 0x49, 0xa9, 0x66],
      [0x2a, 0xd7, 0xb1, 0x83, 0x0f, 0x42, 0x40, ...element([0x4d, 0x80], ascii("test"))],
    ),
    element([0x1f, 0x43, 0xb6, 0x75], zeros(16)),
  );
}

async function startUpload(person: Person, purpose: string, contentType = "image/jpeg", size = 100) {
  return postJson("/uploads", { purpose, fileName: "f.bin", contentType, size }, { token: person.token });
}

/** A finished upload of another purpose ("post", "message"): its key is under posts/. */
async function uploadFile(person: Person, purpose: string, bytes: Uint8Array = buildJpeg()): Promise<number> {
  const started = await startUpload(person, purpose, "image/jpeg", bytes.length);
  expect(started.status).toBe(201);
  const { mediaId } = (await started.json()) as { mediaId: number };
  expect((await octets(`/uploads/${mediaId}/parts/1`, bytes, person.token)).status).toBe(200);
  const completed = await postJson(`/uploads/${mediaId}/complete`, {}, { token: person.token });
  expect(completed.status).toBe(200);
  expect(((await completed.json()) as { url: string }).url).toMatch(/^\/media\/posts\//);
  return mediaId;
}

const createStoryAs = (person: Person, body: Record<string, unknown>) =>
  postJson("/stories", { audience: "everyone", ...body }, { token: person.token });

/** A 30-second MP4 story with its poster frame (stories/posters/…). */
async function videoStory(creator: Person, audience: StoryAudience): Promise<StoryView> {
  const mediaId = await uploadStoryFile(creator, buildMp4(30_000), "video/mp4");
  const poster = await octets(`/uploads/${mediaId}/poster`, buildJpeg(), creator.token);
  expect(poster.status).toBe(200);
  const response = await createStoryAs(creator, { mediaId, audience });
  expect(response.status).toBe(201);
  const story = (await response.json()) as StoryView;
  expect(story).toMatchObject({ kind: "video", audience, durationMs: 30_000 });
  expect(story.posterUrl).toMatch(/^\/media\/stories\/posters\/[a-f0-9]{32}\.jpg$/);
  return story;
}

const storyRow = (id: number) =>
  env.DB.prepare("SELECT * FROM stories WHERE id = ?").bind(id).first<Record<string, unknown>>();
const mediaIdOf = async (storyId: number) =>
  (await env.DB.prepare("SELECT media_id FROM stories WHERE id = ?").bind(storyId).first<number>("media_id"))!;

/** Everything a story command could change: the rows of stories, highlights, views and media, and R2's keys. */
async function storiesState() {
  const rows = async (sql: string) => (await env.DB.prepare(sql).all()).results;
  return {
    stories: await rows("SELECT * FROM stories ORDER BY id"),
    highlights: await rows("SELECT * FROM story_highlights ORDER BY id"),
    views: await rows("SELECT * FROM story_views ORDER BY story_id, viewer_id"),
    media: await rows("SELECT id, status, object_key, poster_key, post_id FROM media ORDER BY id"),
    objects: (await env.MEDIA.list()).objects.map((object) => object.key).sort(),
  };
}

const keepIn = async (storyId: number, body: { title: string } | { highlightId: number }, creator: Person) => {
  const response = await put(`/stories/${storyId}/highlight`, body, creator.token);
  expect(response.status).toBe(200);
  return ((await response.json()) as { highlightId: number }).highlightId;
};

const highlightsOf = async (person: Person, username: string) =>
  (
    (await (await api(`/users/${username}/highlights`, { token: person.token })).json()) as {
      highlights: HighlightView[];
    }
  ).highlights;

const runExpiry = () =>
  expireStories.run({
    env,
    db: env.DB,
    defer: () => undefined,
    publish: () => undefined,
    mailer: devMailbox(env, config(env)),
  });

type Who = "creator" | "subscriber" | "follower" | "stranger" | "blockedByCreator" | "blockingCreator";
const EVERYONE_BUT_CREATOR: Who[] = ["subscriber", "follower", "stranger", "blockedByCreator", "blockingCreator"];

/**
 * A creator and each kind of member: a subscriber, a follower, a member who follows nobody, a follower the creator
 * blocked and a follower who blocked the creator. Four video stories with posters, made in this order: for
 * subscribers, for followers, for everyone (these three in the highlight "Mixed"), and one more for subscribers
 * alone in the highlight "Subs".
 */
async function storyWorld() {
  const creator = await makeCreator();
  const [subscriber, follower, stranger, blockedByCreator, blockingCreator] = await Promise.all([
    createUser(),
    createUser(),
    createUser(),
    createUser(),
    createUser(),
  ]);
  await subscribe(subscriber.user.userId, creator.user.userId);
  await follow(follower.user.userId, creator.user.userId);
  await follow(blockedByCreator.user.userId, creator.user.userId);
  await block(creator.user.userId, blockedByCreator.user.userId);
  await follow(blockingCreator.user.userId, creator.user.userId);
  await block(blockingCreator.user.userId, creator.user.userId);
  const subs = await videoStory(creator, "subscribers");
  const fans = await videoStory(creator, "followers");
  const open = await videoStory(creator, "everyone");
  const subsOnly = await videoStory(creator, "subscribers");
  const mixed = await keepIn(subs.id, { title: "Mixed" }, creator);
  expect(await keepIn(fans.id, { highlightId: mixed }, creator)).toBe(mixed);
  expect(await keepIn(open.id, { highlightId: mixed }, creator)).toBe(mixed);
  const subsHighlight = await keepIn(subsOnly.id, { title: "Subs" }, creator);
  const people: Record<Who, Person> = { creator, subscriber, follower, stranger, blockedByCreator, blockingCreator };
  return { creator, people, stories: { subs, fans, open, subsOnly }, highlights: { mixed, subs: subsHighlight } };
}

describe("stories: who sees what (every 'see' endpoint, the file and the poster)", () => {
  it("each kind of viewer gets the stories, bar, highlights, views, likes, files and posters their audience allows", async () => {
    const { creator, people, stories, highlights } = await storyWorld();
    const { subs, fans, open, subsOnly } = stories;
    const SEES: Record<Who, StoryView[]> = {
      creator: [subs, fans, open, subsOnly],
      subscriber: [subs, fans, open, subsOnly],
      follower: [fans, open],
      stranger: [open],
      blockedByCreator: [],
      blockingCreator: [],
    };
    // The bar lists the creators one follows (and oneself): the stranger follows nobody.
    const BAR_COUNT: Record<Who, number | null> = {
      creator: 4,
      subscriber: 4,
      follower: 2,
      stranger: null,
      blockedByCreator: null,
      blockingCreator: null,
    };
    // Each highlight shows the viewer only the stories they may see; its cover is the first of those.
    const HIGHLIGHTS: Record<Who, HighlightView[]> = {
      creator: [
        { id: highlights.mixed, title: "Mixed", count: 3, coverUrl: subs.posterUrl },
        { id: highlights.subs, title: "Subs", count: 1, coverUrl: subsOnly.posterUrl },
      ],
      subscriber: [
        { id: highlights.mixed, title: "Mixed", count: 3, coverUrl: subs.posterUrl },
        { id: highlights.subs, title: "Subs", count: 1, coverUrl: subsOnly.posterUrl },
      ],
      follower: [{ id: highlights.mixed, title: "Mixed", count: 2, coverUrl: fans.posterUrl }],
      stranger: [{ id: highlights.mixed, title: "Mixed", count: 1, coverUrl: open.posterUrl }],
      blockedByCreator: [],
      blockingCreator: [],
    };

    for (const [who, person] of Object.entries(people) as [Who, Person][]) {
      const seen = SEES[who].map((story) => story.id);
      const reelResponse = await reel(person, creator.user.username);
      if (seen.length === 0) await expectRefused(reelResponse, 404, "No stories right now");
      else
        expect(
          ((await reelResponse.json()) as StoryReel).stories.map((s) => s.id),
          `${who} reel`,
        ).toEqual(seen);

      const barItems = await bar(person);
      expect(
        barItems.map((item) => [item.creator.username, item.count]),
        `${who} bar`,
      ).toEqual(BAR_COUNT[who] === null ? [] : [[creator.user.username, BAR_COUNT[who]]]);
      expect(await highlightsOf(person, creator.user.username), `${who} highlights`).toEqual(HIGHLIGHTS[who]);

      for (const [highlightId, inIt] of [
        [highlights.mixed, [subs, fans, open]],
        [highlights.subs, [subsOnly]],
      ] as const) {
        const expected = inIt.filter((story) => seen.includes(story.id)).map((story) => story.id);
        const response = await api(`/highlights/${highlightId}`, { token: person.token });
        if (expected.length === 0) await expectRefused(response, 404, "This highlight does not exist.");
        else
          expect(
            ((await response.json()) as StoryReel).stories.map((s) => s.id),
            `${who} highlight ${highlightId}`,
          ).toEqual(expected);
      }

      for (const story of [subs, fans, open, subsOnly]) {
        const sees = seen.includes(story.id);
        const label = `${who} / ${story.audience} story ${story.id}`;
        expect(await mediaStatus(story.url, person.token), `${label}: file`).toBe(sees ? 200 : 404);
        expect(await mediaStatus(story.posterUrl!, person.token), `${label}: poster`).toBe(sees ? 200 : 404);
        const viewed = await postJson(`/stories/${story.id}/view`, {}, { token: person.token });
        if (sees) expect(viewed.status, `${label}: view`).toBe(204);
        else await expectRefused(viewed, 404, "This story does not exist.");
        const liked = await put(`/stories/${story.id}/like`, { liked: true }, person.token);
        if (!sees) await expectRefused(liked, 404, "This story does not exist.");
        else if (who === "creator") await expectRefused(liked, 403, "Invalid value");
        else expect(liked.status, `${label}: like`).toBe(200);
      }
    }

    // Who saw and liked each story: exactly the viewers it was for (the creator's own look is not counted).
    const viewersOf = async (story: StoryView) =>
      (
        (await (await api(`/stories/${story.id}/viewers`, { token: creator.token })).json()) as {
          viewers: StoryViewerItem[];
        }
      ).viewers
        .map((v) => [v.user.username, v.liked])
        .sort();
    const sawIt = (story: StoryView) =>
      EVERYONE_BUT_CREATOR.filter((who) => SEES[who].includes(story))
        .map((who) => [people[who].user.username, true])
        .sort();
    for (const story of [subs, fans, open, subsOnly])
      expect(await viewersOf(story), `viewers of ${story.audience}`).toEqual(sawIt(story));
    expect(await storyRow(open.id)).toMatchObject({ view_count: 3, like_count: 3 });

    // A visitor sees no story, file or poster.
    for (const story of [subs, fans, open, subsOnly]) {
      expect(await mediaStatus(story.url, null)).toBe(404);
      expect(await mediaStatus(story.posterUrl!, null)).toBe(404);
    }
  });

  it("'manage' endpoints answer 404 to anyone but the creator and change nothing; the creator's work", async () => {
    const { creator, people, stories, highlights } = await storyWorld();
    const { subs, fans, open, subsOnly } = stories;
    // Another creator with a story of their own, who tries to file it in this creator's highlight.
    const rival = await makeCreator();
    const rivalStory = await postStory(rival);
    const before = await storiesState();

    for (const person of [...EVERYONE_BUT_CREATOR.map((who) => people[who]), rival]) {
      for (const story of [open, subs]) {
        await expectRefused(await del(`/stories/${story.id}`, person.token), 404, "This story does not exist.");
        await expectRefused(
          await api(`/stories/${story.id}/viewers`, { token: person.token }),
          404,
          "This story does not exist.",
        );
        await expectRefused(
          await put(`/stories/${story.id}/highlight`, { title: "Mine now" }, person.token),
          404,
          "This story does not exist.",
        );
        await expectRefused(
          await put(`/stories/${story.id}/highlight`, { highlightId: highlights.mixed }, person.token),
          404,
          "This story does not exist.",
        );
        await expectRefused(
          await del(`/stories/${story.id}/highlight`, person.token),
          404,
          "This story does not exist.",
        );
      }
      await expectRefused(
        await del(`/highlights/${highlights.mixed}`, person.token),
        404,
        "This highlight does not exist.",
      );
      expect(await (await api("/highlights", { token: person.token })).json()).toEqual({ highlights: [] });
    }
    await expectRefused(
      await put(`/stories/${rivalStory.id}/highlight`, { highlightId: highlights.mixed }, rival.token),
      404,
      "This highlight does not exist.",
    );
    expect(await storiesState()).toEqual(before);

    // The creator: their highlights by title, the viewers list, out of a highlight, a highlight deleted, a story deleted.
    expect(await (await api("/highlights", { token: creator.token })).json()).toEqual({
      highlights: [
        { id: highlights.mixed, title: "Mixed" },
        { id: highlights.subs, title: "Subs" },
      ],
    });
    expect(await (await api(`/stories/${open.id}/viewers`, { token: creator.token })).json()).toEqual({
      viewers: [],
      nextCursor: null,
      viewCount: 0,
      likeCount: 0,
    });
    expect((await del(`/stories/${open.id}/highlight`, creator.token)).status).toBe(204);
    expect(await storyRow(open.id)).toMatchObject({ highlight_id: null });
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM stories WHERE highlight_id = ?")
        .bind(highlights.mixed)
        .first("n"),
    ).toBe(2);
    expect((await del(`/highlights/${highlights.subs}`, creator.token)).status).toBe(204);
    expect(
      await env.DB.prepare("SELECT id FROM story_highlights WHERE id = ?").bind(highlights.subs).first(),
    ).toBeNull();
    expect(await storyRow(subsOnly.id)).toMatchObject({ highlight_id: null });
    expect(await (await api(`/highlights/${highlights.subs}`, { token: creator.token })).json()).toMatchObject({
      message: "This highlight does not exist.",
    });

    const fansMedia = await mediaIdOf(fans.id);
    expect((await del(`/stories/${fans.id}`, creator.token)).status).toBe(204);
    expect(await storyRow(fans.id)).toBeNull();
    // Its file stays in the vault.
    expect(await env.DB.prepare("SELECT id FROM media WHERE id = ?").bind(fansMedia).first()).not.toBeNull();
    expect(await env.MEDIA.head(keyOf(fans.url))).not.toBeNull();
    expect(await env.MEDIA.head(keyOf(fans.posterUrl!))).not.toBeNull();
    expect(await env.MEDIA.head(keyOf(open.url))).not.toBeNull();
    await expectRefused(await del(`/stories/${fans.id}`, creator.token), 404, "This story does not exist.");
  });

  it("a visitor without a token is asked to sign in by every story endpoint", async () => {
    const creator = await makeCreator();
    const story = await postStory(creator);
    const highlightId = await keepIn(story.id, { title: "Kept" }, creator);
    const name = creator.user.username;
    const json = { "Content-Type": "application/json" };
    const before = await storiesState();
    for (const [method, path, body] of [
      ["GET", "/stories"],
      ["POST", "/stories", { mediaId: 1, audience: "everyone" }],
      ["GET", `/stories/users/${name}`],
      ["DELETE", `/stories/${story.id}`],
      ["POST", `/stories/${story.id}/view`, {}],
      ["PUT", `/stories/${story.id}/like`, { liked: true }],
      ["GET", `/stories/${story.id}/viewers`],
      ["PUT", `/stories/${story.id}/highlight`, { title: "x" }],
      ["DELETE", `/stories/${story.id}/highlight`],
      ["GET", `/users/${name}/highlights`],
      ["GET", "/highlights"],
      ["GET", `/highlights/${highlightId}`],
      ["DELETE", `/highlights/${highlightId}`],
      ["POST", "/uploads", { purpose: "story", fileName: "s.jpg", contentType: "image/jpeg", size: 100 }],
    ] as [string, string, unknown?][]) {
      const response = await api(path, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: json }),
      });
      expect(response.status, `${method} ${path}`).toBe(401);
    }
    expect(await mediaStatus(story.url, null)).toBe(404);
    expect(await storiesState()).toEqual(before);
  });

  it("past its 24 hours a story is 404 for view, like, viewers, delete and highlight, even for its creator, until the cron", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    const start = new Date("2026-06-01T12:00:00.000Z");
    stopClockAt(start);
    const story = await postStory(creator);
    expect(story.expiresAt).toBe("2026-06-02T12:00:00.000Z");

    // A millisecond before the end it is still there.
    stopClockAt(new Date(start.getTime() + DAY_MS - 1));
    expect((await postJson(`/stories/${story.id}/view`, {}, { token: fan.token })).status).toBe(204);

    stopClockAt(new Date(start.getTime() + DAY_MS));
    const row = await storyRow(story.id);
    for (const person of [creator, fan]) {
      await expectRefused(
        await postJson(`/stories/${story.id}/view`, {}, { token: person.token }),
        404,
        "This story does not exist.",
      );
      await expectRefused(
        await put(`/stories/${story.id}/like`, { liked: true }, person.token),
        404,
        "This story does not exist.",
      );
      await expectRefused(await reel(person, creator.user.username), 404, "No stories right now");
    }
    expect(await mediaStatus(story.url, fan.token)).toBe(404);
    await expectRefused(
      await api(`/stories/${story.id}/viewers`, { token: creator.token }),
      404,
      "This story does not exist.",
    );
    await expectRefused(await del(`/stories/${story.id}`, creator.token), 404, "This story does not exist.");
    await expectRefused(
      await put(`/stories/${story.id}/highlight`, { title: "Too late" }, creator.token),
      404,
      "This story does not exist.",
    );
    expect(await bar(creator)).toEqual([]);
    // Nothing changed: the cron deletes it.
    expect(await storyRow(story.id)).toEqual(row);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM story_highlights").first("n")).toBe(0);
  });
});

describe("stories: bad input gets a clear 4xx", () => {
  it("only creators post stories or upload their files", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    await expectRefused(await startUpload(fan, "story"), 403, "Only creators can upload post media.");
    const mediaId = await uploadStoryFile(creator, buildJpeg());
    await expectRefused(await createStoryAs(fan, { mediaId }), 403, "Only creators can post stories.");
    const ownChatImage = await uploadFile(fan, "message");
    await expectRefused(await createStoryAs(fan, { mediaId: ownChatImage }), 403, "Only creators can post stories.");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM stories").first("n")).toBe(0);
    // The same file makes a story for its creator.
    expect((await createStoryAs(creator, { mediaId })).status).toBe(201);
  });

  it("a story takes a finished file of the creator's vault, in one story at a time; text, audience and ids are checked", async () => {
    const creator = await makeCreator();
    const other = await makeCreator();
    const MISSING = "Choose a photo or a video from your vault.";
    const IN_STORY = "This photo or video is already in a story.";
    const othersFile = await uploadStoryFile(other, buildJpeg());
    await expectRefused(await createStoryAs(creator, { mediaId: othersFile }), 422, MISSING, "mediaId");
    // A post's and a message's photos are vault files too, unmarked (a marked one would also need its marked copy:
    // watermarks.test.ts).
    await env.DB.prepare("UPDATE users SET watermark = 0 WHERE id = ?").bind(creator.user.userId).run();
    expect((await createStoryAs(creator, { mediaId: await uploadFile(creator, "post") })).status).toBe(201);
    expect((await createStoryAs(creator, { mediaId: await uploadFile(creator, "message") })).status).toBe(201);
    await expectRefused(await createStoryAs(creator, { mediaId: 999_999 }), 422, MISSING, "mediaId");

    const started = await startUpload(creator, "story");
    expect(started.status).toBe(201);
    const { mediaId: uploading } = (await started.json()) as { mediaId: number };
    await expectRefused(
      await createStoryAs(creator, { mediaId: uploading }),
      422,
      "Wait for the upload to finish.",
      "mediaId",
    );

    const file = await uploadStoryFile(creator, buildJpeg());
    await expectRefused(
      await createStoryAs(creator, { mediaId: file, text: "x".repeat(201) }),
      422,
      "The text is at most 200 characters.",
      "text",
    );
    for (const audience of ["friends", "", null, 1])
      await expectRefused(await createStoryAs(creator, { mediaId: file, audience }), 422, "Invalid value", "audience");
    await expectRefused(
      await postJson("/stories", { mediaId: file }, { token: creator.token }),
      422,
      "Invalid value",
      "audience",
    );
    for (const mediaId of ["abc", "1", 0, -1, 1.5, null])
      await expectRefused(await createStoryAs(creator, { mediaId }), 422, "Invalid value", "mediaId");
    await expectRefused(await createStoryAs(creator, { mediaId: file, extra: 1 }), 422, "Invalid value", "extra");
    await expectRefused(
      await createStoryAs(creator, { mediaId: file, durationMs: -1 }),
      422,
      "Invalid value",
      "durationMs",
    );
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM stories WHERE media_id = ?").bind(file).first("n")).toBe(0);

    const first = await createStoryAs(creator, { mediaId: file, text: "y".repeat(200), audience: "followers" });
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({ text: "y".repeat(200), audience: "followers", durationMs: null });
    await expectRefused(await createStoryAs(creator, { mediaId: file }), 422, IN_STORY, "mediaId");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM stories WHERE media_id = ?").bind(file).first("n")).toBe(1);
  });

  it("a story's file is a vault file: a post and a message take it, and it outlives its story", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    const story = await postStory(creator);
    const inStory = await mediaIdOf(story.id);

    const post = await postJson(
      "/posts",
      { text: "with a story file", audience: "subscribers", mediaIds: [inStory] },
      { token: creator.token },
    );
    expect(post.status).toBe(201);
    const conversation = await postJson("/conversations", { username: fan.user.username }, { token: creator.token });
    expect(conversation.status).toBe(200);
    const { id: conversationId } = (await conversation.json()) as { id: number };
    const sent = await postJson(
      `/conversations/${conversationId}/messages`,
      { clientId: crypto.randomUUID(), text: "look", mediaIds: [inStory] },
      { token: creator.token },
    );
    expect(sent.status).toBeLessThan(300);
    await expectRefused(
      await del(`/uploads/${inStory}`, creator.token),
      422,
      "This file belongs to a post: edit the post to remove it.",
      "file",
    );

    // The story goes; the file stays, stored once, and the fan still reads it through the free message.
    expect((await del(`/stories/${story.id}`, creator.token)).status).toBe(204);
    expect(await env.MEDIA.head(keyOf(story.url))).not.toBeNull();
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM media WHERE id = ?").bind(inStory).first("n")).toBe(1);
    expect((await fetchMedia(story.url, fan.token)).status).toBe(200);
    // Without the message the file is the subscribers' post's alone: the follower gets nothing.
    await env.DB.prepare("DELETE FROM message_media WHERE media_id = ?").bind(inStory).run();
    expect((await fetchMedia(story.url, fan.token)).status).toBe(404);
  });

  it("a video's length is read from its file (MP4), or taken as declared when the file does not say (WebM)", async () => {
    const creator = await makeCreator();
    const TOO_LONG = "A story video can be at most 60 seconds.";
    const tooLong = await uploadStoryFile(creator, buildMp4(61_000), "video/mp4");
    await expectRefused(await createStoryAs(creator, { mediaId: tooLong, durationMs: 5000 }), 422, TOO_LONG, "mediaId");
    await expectRefused(await createStoryAs(creator, { mediaId: tooLong }), 422, TOO_LONG, "mediaId");

    const halfMinute = await uploadStoryFile(creator, buildMp4(30_000), "video/mp4");
    const created = await createStoryAs(creator, { mediaId: halfMinute, durationMs: 5000 });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ kind: "video", durationMs: 30_000 });
    // Exactly 60 s is allowed; the timescale is the file's (90 kHz here).
    const minute = await uploadStoryFile(creator, buildMp4(60 * 90_000, 90_000), "video/mp4");
    expect(await (await createStoryAs(creator, { mediaId: minute })).json()).toMatchObject({ durationMs: 60_000 });

    const webm = await uploadStoryFile(creator, buildWebmWithoutDuration(), "video/webm");
    await expectRefused(await createStoryAs(creator, { mediaId: webm, durationMs: 61_000 }), 422, TOO_LONG, "mediaId");
    await expectRefused(
      await createStoryAs(creator, { mediaId: webm }),
      422,
      "The length of this video could not be read.",
      "mediaId",
    );
    await expectRefused(
      await createStoryAs(creator, { mediaId: webm, durationMs: null }),
      422,
      "The length of this video could not be read.",
      "mediaId",
    );
    const fromBrowser = await createStoryAs(creator, { mediaId: webm, durationMs: 20_000 });
    expect(fromBrowser.status).toBe(201);
    expect(await fromBrowser.json()).toMatchObject({ kind: "video", durationMs: 20_000 });

    // A photo has no length, whatever is declared.
    const photo = await createStoryAs(creator, {
      mediaId: await uploadStoryFile(creator, buildJpeg()),
      durationMs: 5000,
    });
    expect(await photo.json()).toMatchObject({ kind: "image", durationMs: null });
    expect(
      await env.DB.prepare("SELECT duration_ms FROM stories ORDER BY id")
        .all()
        .then((r) => r.results.map((row) => row.duration_ms)),
    ).toEqual([30_000, 60_000, 20_000, null]);
  });

  it("garbage ids, cursors and bodies are 422, unknown ids 404, never a 5xx", async () => {
    const creator = await makeCreator();
    const story = await postStory(creator);
    const before = await storiesState();
    const paths = (id: string): [string, string, unknown?][] => [
      ["DELETE", `/stories/${id}`],
      ["POST", `/stories/${id}/view`, {}],
      ["PUT", `/stories/${id}/like`, { liked: true }],
      ["GET", `/stories/${id}/viewers`],
      ["PUT", `/stories/${id}/highlight`, { title: "x" }],
      ["DELETE", `/stories/${id}/highlight`],
      ["GET", `/highlights/${id}`],
      ["DELETE", `/highlights/${id}`],
    ];
    const send = (method: string, path: string, body?: unknown) =>
      api(path, { method, token: creator.token, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    for (const id of ["abc", "0", "1.5", "99999999999999999999"]) {
      for (const [method, path, body] of paths(id))
        await expectRefused(await send(method, path, body), 422, "Invalid value", "id");
    }
    for (const [method, path, body] of paths("999999")) {
      const response = await send(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    await expectRefused(
      await api("/stories/users/nobody_at_all", { token: creator.token }),
      404,
      "No stories right now",
    );

    for (const cursor of [
      "garbage",
      "bm90IGEgY3Vyc29y",
      encodeCursor("2026-01-01T00:00:00.000Z", 1).slice(0, -2) + "!!",
    ]) {
      await expectRefused(
        await api(`/stories/${story.id}/viewers?cursor=${cursor}`, { token: creator.token }),
        422,
        "This list position is not valid. Reload the page.",
      );
    }
    const fromCursor = await api(`/stories/${story.id}/viewers?cursor=${encodeCursor("2099-01-01T00:00:00.000Z", 1)}`, {
      token: creator.token,
    });
    expect(fromCursor.status).toBe(200);

    for (const body of [{}, { liked: "yes" }, { liked: true, extra: 1 }])
      await expectRefused(await send("PUT", `/stories/${story.id}/like`, body), 422, "Invalid value");
    for (const [body, message] of [
      [{}, "Invalid value"],
      [{ title: "x", highlightId: 1 }, "Invalid value"],
      [{ title: "   " }, "Give the highlight a title."],
      [{ title: "t".repeat(31) }, "A highlight title is at most 30 characters."],
      [{ highlightId: "abc" }, "Invalid value"],
    ] as const) {
      await expectRefused(await send("PUT", `/stories/${story.id}/highlight`, body), 422, message);
    }
    await expectRefused(
      await send("PUT", `/stories/${story.id}/highlight`, { highlightId: 999_999 }),
      404,
      "This highlight does not exist.",
    );
    expect(await storiesState()).toEqual(before);
  });
});

describe("stories: the expiry job", () => {
  it("deletes an expired story's row, views, file and poster once; a younger story stays", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    const start = new Date("2026-06-01T12:00:00.000Z");
    stopClockAt(start);
    const old = await videoStory(creator, "everyone");
    const oldMedia = await mediaIdOf(old.id);
    expect((await postJson(`/stories/${old.id}/view`, {}, { token: fan.token })).status).toBe(204);
    stopClockAt(new Date(start.getTime() + 12 * HOUR_MS));
    const young = await videoStory(creator, "everyone");

    stopClockAt(new Date(start.getTime() + DAY_MS + 1000));
    expect(await runExpiry()).toEqual({ expired: 1 });
    expect(await runExpiry()).toEqual({ expired: 0 });
    expect(await storyRow(old.id)).toBeNull();
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM story_views WHERE story_id = ?").bind(old.id).first("n"),
    ).toBe(0);
    // Its file stays in the vault.
    expect(await env.DB.prepare("SELECT id FROM media WHERE id = ?").bind(oldMedia).first()).not.toBeNull();
    expect(await env.MEDIA.head(keyOf(old.url))).not.toBeNull();
    expect(await env.MEDIA.head(keyOf(old.posterUrl!))).not.toBeNull();

    expect(await storyRow(young.id)).not.toBeNull();
    expect(await env.MEDIA.head(keyOf(young.url))).not.toBeNull();
    expect(await env.MEDIA.head(keyOf(young.posterUrl!))).not.toBeNull();
    expect(((await (await reel(fan, creator.user.username)).json()) as StoryReel).stories.map((s) => s.id)).toEqual([
      young.id,
    ]);
  });

  it("a story taken out of its highlight after 24 hours is gone, and deleted by the next run", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    const start = new Date("2026-06-01T12:00:00.000Z");
    stopClockAt(start);
    const story = await videoStory(creator, "everyone");
    const highlightId = await keepIn(story.id, { title: "Kept" }, creator);

    stopClockAt(new Date(start.getTime() + DAY_MS + HOUR_MS));
    expect(await runExpiry()).toEqual({ expired: 0 });
    expect((await postJson(`/stories/${story.id}/view`, {}, { token: fan.token })).status).toBe(204);

    expect((await del(`/stories/${story.id}/highlight`, creator.token)).status).toBe(204);
    // The highlight, now empty, goes too; the story is past its time for everyone.
    expect(await env.DB.prepare("SELECT id FROM story_highlights WHERE id = ?").bind(highlightId).first()).toBeNull();
    await expectRefused(
      await postJson(`/stories/${story.id}/view`, {}, { token: fan.token }),
      404,
      "This story does not exist.",
    );
    expect(await mediaStatus(story.url, fan.token)).toBe(404);

    expect(await runExpiry()).toEqual({ expired: 1 });
    expect(await storyRow(story.id)).toBeNull();
    expect(await env.MEDIA.head(keyOf(story.url))).not.toBeNull();
    expect(await env.MEDIA.head(keyOf(story.posterUrl!))).not.toBeNull();
  });

  it("a highlight left empty by moving or deleting its last story goes; one with stories left stays", async () => {
    const creator = await makeCreator();
    const [a, b, c] = [await postStory(creator), await postStory(creator), await postStory(creator)];
    const first = await keepIn(a.id, { title: "First" }, creator);
    const second = await keepIn(b.id, { title: "Second" }, creator);
    await keepIn(c.id, { highlightId: second }, creator);
    const exists = async (id: number) =>
      (await env.DB.prepare("SELECT id FROM story_highlights WHERE id = ?").bind(id).first()) !== null;

    // Moving the only story of "First" into "Second" leaves "First" empty: it goes.
    expect(await keepIn(a.id, { highlightId: second }, creator)).toBe(second);
    expect([await exists(first), await exists(second)]).toEqual([false, true]);
    // Deleting two of the three stories of "Second" keeps it; deleting the last removes it.
    expect((await del(`/stories/${a.id}`, creator.token)).status).toBe(204);
    expect((await del(`/stories/${b.id}`, creator.token)).status).toBe(204);
    expect(await exists(second)).toBe(true);
    expect((await del(`/stories/${c.id}`, creator.token)).status).toBe(204);
    expect(await exists(second)).toBe(false);
  });

  it("deleting a highlight leaves its stories to their own 24 hours: the expired ones to the cron", async () => {
    const creator = await makeCreator();
    const start = new Date("2026-06-01T12:00:00.000Z");
    stopClockAt(start);
    const first = await postStory(creator);
    const second = await postStory(creator);
    const highlightId = await keepIn(first.id, { title: "Kept" }, creator);
    await keepIn(second.id, { highlightId }, creator);
    stopClockAt(new Date(start.getTime() + 12 * HOUR_MS));
    const young = await postStory(creator);
    await keepIn(young.id, { highlightId }, creator);

    stopClockAt(new Date(start.getTime() + DAY_MS + HOUR_MS));
    expect((await del(`/highlights/${highlightId}`, creator.token)).status).toBe(204);
    // Nothing is deleted by the command itself.
    for (const story of [first, second, young]) {
      expect(await storyRow(story.id)).toMatchObject({ highlight_id: null });
      expect(await env.MEDIA.head(keyOf(story.url))).not.toBeNull();
    }
    expect(await runExpiry()).toEqual({ expired: 2 });
    for (const story of [first, second]) {
      expect(await storyRow(story.id)).toBeNull();
      expect(await env.MEDIA.head(keyOf(story.url))).not.toBeNull();
    }
    expect(await storyRow(young.id)).not.toBeNull();
    expect(await env.MEDIA.head(keyOf(young.url))).not.toBeNull();
  });

  it("runs in the cron (runScheduledJobs) and reports {expired: n}; a kept story's file survives the whole run", async () => {
    const creator = await makeCreator();
    const start = new Date("2026-06-01T12:00:00.000Z");
    stopClockAt(start);
    const gone = [await postStory(creator), await videoStory(creator, "followers")];
    const kept = await postStory(creator);
    await keepIn(kept.id, { title: "Kept" }, creator);

    stopClockAt(new Date(start.getTime() + DAY_MS + HOUR_MS));
    const pending: Promise<unknown>[] = [];
    const outcomes = await runScheduledJobs(env, (work) => void pending.push(work), devMailbox(env, config(env)));
    await Promise.allSettled(pending);
    expect(outcomes.find((outcome) => outcome.job === "expire-stories")).toMatchObject({
      ok: true,
      result: { expired: 2 },
    });
    for (const story of gone) {
      expect(await storyRow(story.id)).toBeNull();
      expect(await env.MEDIA.head(keyOf(story.url))).not.toBeNull();
    }
    expect(await env.MEDIA.head(keyOf(gone[1]!.posterUrl!))).not.toBeNull();
    // Their files stay in the vault; the abandoned-uploads job of the same run leaves a story's file alone, however old.
    expect(await env.MEDIA.head(keyOf(kept.url))).not.toBeNull();
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM media WHERE id = ?")
        .bind(await mediaIdOf(kept.id))
        .first("n"),
    ).toBe(1);
  });
});

describe("stories: views and likes", () => {
  it("a view is counted once per person, never the creator's; a like toggles like_count; one's own story cannot be liked", async () => {
    const creator = await makeCreator();
    const [fan, other] = [await createUser(), await createUser()];
    await follow(fan.user.userId, creator.user.userId);
    await follow(other.user.userId, creator.user.userId);
    const story = await postStory(creator);
    const counts = async () => {
      const row = await storyRow(story.id);
      const views = await env.DB.prepare(
        "SELECT viewer_id, liked FROM story_views WHERE story_id = ? ORDER BY viewer_id",
      )
        .bind(story.id)
        .all();
      return { views: row!.view_count, likes: row!.like_count, rows: views.results.map((v) => [v.viewer_id, v.liked]) };
    };

    for (let i = 0; i < 3; i++)
      expect((await postJson(`/stories/${story.id}/view`, {}, { token: fan.token })).status).toBe(204);
    expect(await counts()).toEqual({ views: 1, likes: 0, rows: [[fan.user.userId, 0]] });
    expect((await postJson(`/stories/${story.id}/view`, {}, { token: creator.token })).status).toBe(204);
    expect(await counts()).toEqual({ views: 1, likes: 0, rows: [[fan.user.userId, 0]] });
    await expectRefused(await put(`/stories/${story.id}/like`, { liked: true }, creator.token), 403, "Invalid value");
    expect(await counts()).toEqual({ views: 1, likes: 0, rows: [[fan.user.userId, 0]] });

    const like = async (person: Person, liked: boolean) => {
      const response = await put(`/stories/${story.id}/like`, { liked }, person.token);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ liked });
    };
    await like(fan, true);
    expect(await counts()).toMatchObject({ views: 1, likes: 1 });
    await like(fan, true);
    expect(await counts()).toMatchObject({ views: 1, likes: 1 });
    await like(fan, false);
    expect(await counts()).toMatchObject({ views: 1, likes: 0 });
    await like(fan, false);
    expect(await counts()).toMatchObject({ views: 1, likes: 0 });
    await like(fan, true);
    // Liking without a view first is seeing it, too; a view afterwards keeps the like.
    await like(other, true);
    expect((await postJson(`/stories/${story.id}/view`, {}, { token: other.token })).status).toBe(204);
    expect(await counts()).toEqual({
      views: 2,
      likes: 2,
      rows: [
        [fan.user.userId, 1],
        [other.user.userId, 1],
      ].sort((a, b) => a[0]! - b[0]!),
    });

    const viewers = (await (await api(`/stories/${story.id}/viewers`, { token: creator.token })).json()) as {
      viewCount: number;
      likeCount: number;
      viewers: StoryViewerItem[];
    };
    expect(viewers).toMatchObject({ viewCount: 2, likeCount: 2 });
    expect(viewers.viewers.map((v) => v.user.username).sort()).toEqual([fan.user.username, other.user.username].sort());
    const reelOf = async (person: Person) =>
      ((await (await reel(person, creator.user.username)).json()) as StoryReel).stories[0]!;
    expect(await reelOf(fan)).toMatchObject({ seen: true, liked: true, own: null });
    expect(await reelOf(creator)).toMatchObject({ seen: true, liked: false, own: { viewCount: 2, likeCount: 2 } });
    expect((await bar(creator))[0]).toMatchObject({ count: 1, unseen: 0 });
  });
});

describe("stories: the bar's query plan", () => {
  it("reads stories through stories_creator_live per followed creator, never a scan of stories (EXPLAIN QUERY PLAN)", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    await postStory(creator);
    const { results } = await storiesBarStatement(env.DB, fan.user.userId, true).all<{ detail: string }>();
    const plan = results.map((row) => row.detail);
    expect(
      plan.some((line) =>
        /^SEARCH st USING (COVERING )?INDEX stories_creator_live \(creator_id=\? AND expires_at>\?\)/.test(line),
      ),
      plan.join("\n"),
    ).toBe(true);
    expect(
      plan.filter((line) => /^SCAN (st|stories|f|follows|o|users|v|story_views)\b/.test(line)),
      plan.join("\n"),
    ).toEqual([]);
    // listStoriesBar runs this statement (without EXPLAIN).
    expect((await bar(fan)).map((item) => item.creator.username)).toEqual([creator.user.username]);
  });
});

/** /media is served by the Worker itself, outside /api. */
async function fetchMedia(url: string, token: string | null) {
  const { SELF } = await import("cloudflare:test");
  return SELF.fetch(`https://app.test${url}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
}
