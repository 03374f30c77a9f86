import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { HighlightView, StoriesBarItem, StoryReel, StoryView, StoryViewerItem } from "@shared/contracts/stories";
import { runScheduledJobs } from "../../worker/jobs";
import { expireStories } from "../../worker/jobs/expire-stories";
import { buildJpeg } from "../support/media-fixtures";
import { stopClockAt } from "./clock";
import { api, createUser, postJson } from "./factories";
import { block, follow, makeCreator, subscribe } from "./timeline-fixtures";

type Person = Awaited<ReturnType<typeof createUser>>;

/** A file uploaded through the real upload API with purpose "story". */
async function uploadStoryFile(person: Person, bytes: Uint8Array, contentType = "image/jpeg"): Promise<number> {
  const started = await postJson("/uploads", { purpose: "story", fileName: "s.bin", contentType, size: bytes.length }, { token: person.token });
  expect(started.status).toBe(201);
  const { mediaId } = (await started.json()) as { mediaId: number };
  const part = await api(`/uploads/${mediaId}/parts/1`, { method: "PUT", body: new Uint8Array(bytes), token: person.token, headers: { "Content-Type": "application/octet-stream" } });
  expect(part.status).toBe(200);
  expect((await postJson(`/uploads/${mediaId}/complete`, {}, { token: person.token })).status).toBe(200);
  return mediaId;
}

async function postStory(creator: Person, body: Record<string, unknown> = {}, bytes: Uint8Array = buildJpeg()): Promise<StoryView> {
  const mediaId = await uploadStoryFile(creator, bytes);
  const response = await postJson("/stories", { mediaId, audience: "everyone", ...body }, { token: creator.token });
  expect(response.status).toBe(201);
  return (await response.json()) as StoryView;
}

const bar = async (person: Person) => ((await (await api("/stories", { token: person.token })).json()) as { creators: StoriesBarItem[] }).creators;
const reel = (person: Person, username: string) => api(`/stories/users/${username}`, { token: person.token });
const put = (path: string, body: unknown, token: string) =>
  api(path, { method: "PUT", token, body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });

describe("stories", () => {
  it("a creator posts a photo story; a follower sees it in the bar, unseen, then seen; the creator sees the viewer", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    const story = await postStory(creator, { text: "Hello fans" });
    expect(story).toMatchObject({ kind: "image", text: "Hello fans", audience: "everyone", seen: true, own: { viewCount: 0, likeCount: 0 } });
    expect(story.url).toMatch(/^\/media\/stories\/[a-f0-9]{32}\.jpg$/);

    expect(await bar(fan)).toEqual([expect.objectContaining({ creator: expect.objectContaining({ username: creator.user.username }), count: 1, unseen: 1 })]);
    const seenReel = (await (await reel(fan, creator.user.username)).json()) as StoryReel;
    expect(seenReel.stories.map((s) => [s.id, s.seen, s.own])).toEqual([[story.id, false, null]]);
    expect((await api(story.url.replace("/media", ""), { token: fan.token })).status).toBe(404); // /api has no media
    expect((await fetchMedia(story.url, fan.token)).status).toBe(200);

    expect((await postJson(`/stories/${story.id}/view`, {}, { token: fan.token })).status).toBe(204);
    expect((await postJson(`/stories/${story.id}/view`, {}, { token: fan.token })).status).toBe(204);
    expect((await bar(fan))[0]).toMatchObject({ count: 1, unseen: 0 });
    expect((await put(`/stories/${story.id}/like`, { liked: true }, fan.token)).status).toBe(200);

    const viewers = (await (await api(`/stories/${story.id}/viewers`, { token: creator.token })).json()) as { viewers: StoryViewerItem[]; viewCount: number; likeCount: number };
    expect(viewers).toMatchObject({ viewCount: 1, likeCount: 1 });
    expect(viewers.viewers.map((v) => [v.user.username, v.liked])).toEqual([[fan.user.username, true]]);
    // Only the creator reads the viewers list.
    expect((await api(`/stories/${story.id}/viewers`, { token: fan.token })).status).toBe(404);
  });

  it("audience, blocks and suspension decide who sees a story, its file and its place in the bar", async () => {
    const creator = await makeCreator();
    const [follower, subscriber, stranger, blocked] = await Promise.all([createUser(), createUser(), createUser(), createUser()]);
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
      expect((await postJson(`/stories/${story.id}/view`, {}, { token: person.token })).status, `${story.audience} view`).toBe(status === 200 ? 204 : 404);
    }
    expect((await fetchMedia(open.url, null)).status).toBe(404);

    await env.DB.prepare("UPDATE users SET suspended_at = ? WHERE id = ?").bind(new Date().toISOString(), creator.user.userId).run();
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

    const first = await expireStories.run({ env, db: env.DB, defer: () => undefined, publish: () => undefined });
    const second = await expireStories.run({ env, db: env.DB, defer: () => undefined, publish: () => undefined });
    expect(first.expired).toBeGreaterThanOrEqual(1);
    expect(second.expired).toBe(0);
    expect(await env.DB.prepare("SELECT id FROM stories WHERE id = ?").bind(gone.id).first()).toBeNull();
    expect(await env.MEDIA.head(goneKey)).toBeNull();
    expect(await env.MEDIA.head(keptKey)).not.toBeNull();

    // The highlight is still on the profile and plays.
    const highlights = ((await (await api(`/users/${creator.user.username}/highlights`, { token: fan.token })).json()) as { highlights: HighlightView[] }).highlights;
    expect(highlights).toEqual([{ id: highlightId, title: "Best of", count: 1, coverUrl: kept.url }]);
    const played = (await (await api(`/highlights/${highlightId}`, { token: fan.token })).json()) as StoryReel;
    expect(played.stories.map((s) => s.id)).toEqual([kept.id]);
    expect((await fetchMedia(kept.url, fan.token)).status).toBe(200);
    void runScheduledJobs;
  });
});

/** /media is served by the Worker itself, outside /api. */
async function fetchMedia(url: string, token: string | null) {
  const { SELF } = await import("cloudflare:test");
  return SELF.fetch(`https://app.test${url}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
}
