import { env, SELF } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { requirePostAccess } from "../../worker/domain/policies/posts";
import { inViewerPlace } from "../../worker/domain/policies/viewer-place";
import { api, createUser } from "./factories";
import { createPost, makeCreator, PNG, subscribe, type SeededPost } from "./timeline-fixtures";
import { answerTo } from "./waits";

/**
 * Geo-blocking through the request's headers, as Cloudflare sets them: a creator who blocks Germany and Texas does
 * not exist for anyone there but themself (the same 404 as a missing profile on every object route, absent from
 * every list), and exists as before from France or California.
 */
type Person = Awaited<ReturnType<typeof createUser>>;
type Place = { country: string; region?: string } | null;

let creator: Person;
let subscriber: Person;
let stranger: Person;
let post: SeededPost;
let w640Key: string;
let renditionKey: string;
let storyId: number;
let storyKey: string;
let streamId: number;

const hex = () => crypto.randomUUID().replace(/-/g, "");

const placeHeaders = (place: Place): Record<string, string> =>
  place ? { "CF-IPCountry": place.country, ...(place.region ? { "CF-Region-Code": place.region } : {}) } : {};

const as = (person: Person | null, place: Place, path: string, init: RequestInit = {}) =>
  api(path, { ...init, token: person?.token, headers: { ...placeHeaders(place), ...init.headers } });

async function statusOf(person: Person | null, place: Place, path: string, init: RequestInit = {}) {
  const response = await as(person, place, path, init);
  await response.arrayBuffer();
  return response.status;
}

async function mediaStatus(person: Person | null, place: Place, key: string) {
  const response = await answerTo(
    `GET /media/${key}`,
    SELF.fetch(`https://app.test/media/${key}`, {
      headers: { ...placeHeaders(place), ...(person ? { Authorization: `Bearer ${person.token}` } : {}) },
    }),
  );
  await response.arrayBuffer();
  return response.status;
}

const sockets: WebSocket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close(1000, "test over");
});

/** The live stream's socket: 101 when the viewer may watch, else the refusal's status. */
async function socketStatus(person: Person, place: Place) {
  const response = await answerTo(
    `GET /ws/live/${streamId}`,
    SELF.fetch(`https://app.test/ws/live/${streamId}`, {
      headers: { ...placeHeaders(place), Upgrade: "websocket", Authorization: `Bearer ${person.token}` },
    }),
  );
  if (response.webSocket) {
    response.webSocket.accept();
    sockets.push(response.webSocket);
  } else await response.arrayBuffer();
  return response.status;
}

const json = async <T>(response: Response) => (await response.json()) as T;
const postIds = (body: { posts: { id: number }[] }) => body.posts.map((p) => p.id);

/** What the subscriber reaches of the creator from `place`: each object route's status, and each list's finding. */
async function whatSubscriberReaches(place: Place, who: Person = subscriber) {
  const username = creator.user.username;
  return {
    profile: await statusOf(who, place, `/users/${username}`),
    profilePosts: await statusOf(who, place, `/users/${username}/posts`),
    plans: await statusOf(who, place, `/users/${username}/plans`),
    post: await statusOf(who, place, `/posts/${post.id}`),
    comments: await statusOf(who, place, `/posts/${post.id}/comments`),
    postMedia: await mediaStatus(who, place, post.key),
    preview: await mediaStatus(who, place, post.previewKey),
    scaledCopy: await mediaStatus(who, place, w640Key),
    rendition: await mediaStatus(who, place, renditionKey),
    storyView: await statusOf(who, place, `/stories/${storyId}/view`, { method: "POST", body: "{}" }),
    storyReel: await statusOf(who, place, `/stories/users/${username}`),
    storyMedia: await mediaStatus(who, place, storyKey),
    highlights: await statusOf(who, place, `/users/${username}/highlights`),
    liveStream: await statusOf(who, place, `/live/${streamId}`),
    liveSocket: await socketStatus(who, place),
    inLiveList: (await json<{ streams: { id: number }[] }>(await as(who, place, "/live"))).streams.some(
      (s) => s.id === streamId,
    ),
    inTimeline: postIds(await json(await as(who, place, "/timeline"))).includes(post.id),
    inBookmarks: postIds(await json(await as(who, place, "/bookmarks"))).includes(post.id),
    inPostSearch: postIds(await json(await as(who, place, "/search/posts?q=geowall"))).includes(post.id),
    inUserSearch: (
      await json<{ results: { users: { username: string }[] } }>(
        await as(who, place, `/searchUsers?searchTerm=${username}`),
      )
    ).results.users.some((u) => u.username === username),
    inStoriesBar: (
      await json<{ creators: { creator: { username: string } }[] }>(await as(who, place, "/stories"))
    ).creators.some((c) => c.creator.username === username),
  };
}

const VISIBLE = {
  profile: 200,
  profilePosts: 200,
  plans: 200,
  post: 200,
  comments: 200,
  postMedia: 200,
  preview: 200,
  scaledCopy: 200,
  rendition: 200,
  storyView: 204,
  storyReel: 200,
  storyMedia: 200,
  highlights: 200,
  liveStream: 200,
  liveSocket: 101,
  inLiveList: true,
  inTimeline: true,
  inBookmarks: true,
  inPostSearch: true,
  inUserSearch: true,
  inStoriesBar: true,
};

const ABSENT = {
  profile: 404,
  profilePosts: 404,
  plans: 404,
  post: 404,
  comments: 404,
  postMedia: 404,
  preview: 404,
  scaledCopy: 404,
  rendition: 404,
  storyView: 404,
  storyReel: 404,
  storyMedia: 404,
  highlights: 404,
  liveStream: 404,
  liveSocket: 404,
  inLiveList: false,
  inTimeline: false,
  inBookmarks: false,
  inPostSearch: false,
  inUserSearch: false,
  inStoriesBar: false,
};

beforeAll(async () => {
  creator = await makeCreator();
  [subscriber, stranger] = await Promise.all([createUser(), createUser()]);
  await subscribe(subscriber.user.userId, creator.user.userId);
  const now = new Date().toISOString();
  post = await createPost(creator.user.userId, { text: "geowall everyone" });
  await env.DB.prepare("INSERT INTO bookmarks (user_id, post_id, created_at) VALUES (?, ?, ?)")
    .bind(subscriber.user.userId, post.id, now)
    .run();
  w640Key = `scaled/640/${hex()}.png`;
  renditionKey = `renditions/${hex()}.mp4`;
  storyKey = `stories/${hex()}.png`;
  for (const key of [w640Key, renditionKey, storyKey]) await env.MEDIA.put(key, PNG);
  await env.DB.prepare("UPDATE media SET w640_key = ? WHERE object_key = ?").bind(w640Key, post.key).run();
  await env.DB.prepare(
    `INSERT INTO media_renditions (media_id, name, status, object_key, content_type, size_bytes, created_at)
     SELECT id, '360p', 'ready', ?, 'video/mp4', 8, ? FROM media WHERE object_key = ?`,
  )
    .bind(renditionKey, now, post.key)
    .run();
  const storyMedia = await env.DB.prepare(
    `INSERT INTO media (user_id, kind, status, object_key, content_type, size_bytes, created_at)
     VALUES (?, 'image', 'ready', ?, 'image/png', 8, ?) RETURNING id`,
  )
    .bind(creator.user.userId, storyKey, now)
    .first<{ id: number }>();
  storyId = (await env.DB.prepare(
    `INSERT INTO stories (creator_id, media_id, audience, created_at, expires_at) VALUES (?, ?, 'everyone', ?, '2099-01-01T00:00:00.000Z') RETURNING id`,
  )
    .bind(creator.user.userId, storyMedia!.id, now)
    .first<{ id: number }>())!.id;
  streamId = (await env.DB.prepare(
    `INSERT INTO live_streams (creator_id, title, audience, transport, status, started_at) VALUES (?, 'Geo stream', 'everyone', 'p2p', 'live', ?) RETURNING id`,
  )
    .bind(creator.user.userId, now)
    .first<{ id: number }>())!.id;
  const saved = await as(creator, null, "/me/geo-blocks", {
    method: "PUT",
    body: JSON.stringify({ places: ["DE", "US-TX"] }),
  });
  expect(saved.status).toBe(200);
});

describe("geo-blocking: a creator who blocks DE and US-TX", () => {
  it("exists from France, as before, on every object route and in every list", async () => {
    expect(await whatSubscriberReaches({ country: "FR" })).toEqual(VISIBLE);
  });

  it("does not exist from Germany, even for their subscriber: 404 on every object route, absent from every list", async () => {
    expect(await whatSubscriberReaches({ country: "DE" })).toEqual(ABSENT);
  });

  it("does not exist from Texas, and exists from California", async () => {
    expect(await whatSubscriberReaches({ country: "US", region: "TX" })).toEqual(ABSENT);
    expect(await whatSubscriberReaches({ country: "US", region: "CA" })).toEqual(VISIBLE);
  });

  it("sees everything of their own from Germany, as from anywhere else", async () => {
    const fromGermany = await whatSubscriberReaches({ country: "DE" }, creator);
    expect(fromGermany).toEqual(await whatSubscriberReaches({ country: "FR" }, creator));
    expect(fromGermany).toMatchObject({ profile: 200, post: 200, postMedia: 200, storyView: 204, liveStream: 200 });
  });

  it("answers a visitor from Germany the same 404 as a profile that does not exist", async () => {
    const blocked = await as(null, { country: "DE" }, `/users/${creator.user.username}`);
    const missing = await as(null, { country: "DE" }, "/users/nobody_here_at_all");
    expect(blocked.status).toBe(404);
    expect(await blocked.json()).toEqual(await missing.json());
    expect(await statusOf(null, { country: "DE" }, `/posts/${post.id}`)).toBe(404);
    expect(await mediaStatus(null, { country: "DE" }, post.previewKey)).toBe(404);
    expect(await statusOf(null, { country: "FR" }, `/users/${creator.user.username}`)).toBe(200);
    expect(await mediaStatus(null, { country: "FR" }, post.previewKey)).toBe(200);
  });

  it("leaves the creator out of suggestions from Germany only", async () => {
    const suggested = async (place: Place) =>
      (
        await json<{ suggestedProfiles: { username: string }[] }>(await as(stranger, place, "/suggestedProfiles"))
      ).suggestedProfiles.some((p) => p.username === creator.user.username);
    expect(await suggested({ country: "FR" })).toBe(true);
    expect(await suggested({ country: "DE" })).toBe(false);
  });

  it("refuses to follow or subscribe from Germany as to a missing profile", async () => {
    const followed = await as(stranger, { country: "DE" }, `/users/${creator.user.username}/follow`, {
      method: "POST",
      body: "{}",
    });
    expect(followed.status).toBe(404);
  });

  it("checks commands the same way: requirePostAccess in Germany is not found, elsewhere it passes", async () => {
    const outcome = (country: string) =>
      inViewerPlace({ country, region: null }, () =>
        requirePostAccess(env.DB, post.id, subscriber.user.userId, "open").then(
          () => "passes",
          (error: { code: string }) => error.code,
        ),
      );
    expect(await outcome("DE")).toBe("not_found");
    expect(await outcome("FR")).toBe("passes");
  });
});

describe("GET and PUT /api/me/geo-blocks", () => {
  it("keeps the whole set the creator chose, sorted, with the places the request comes from", async () => {
    const author = await makeCreator();
    const put = (places: unknown, place: Place = { country: "US", region: "CA" }) =>
      as(author, place, "/me/geo-blocks", { method: "PUT", body: JSON.stringify({ places }) });
    const saved = await put(["US-TX", "DE", "DE"]);
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ places: ["DE", "US-TX"], here: ["US", "US-CA"] });
    expect(await json(await put(["FR"]))).toEqual({ places: ["FR"], here: ["US", "US-CA"] });
    const read = await as(author, { country: "FR" }, "/me/geo-blocks");
    expect(await read.json()).toEqual({ places: ["FR"], here: ["FR"] });
  });

  it("refuses unknown codes with a translated 422 and changes nothing", async () => {
    const author = await makeCreator();
    await as(author, null, "/me/geo-blocks", { method: "PUT", body: JSON.stringify({ places: ["IT"] }) });
    for (const places of [["XX"], ["de"], ["US-ZZ"], ["DE-BY"], ["Germany"], "DE", [1]]) {
      const refused = await as(author, null, "/me/geo-blocks?lng=fr", {
        method: "PUT",
        body: JSON.stringify({ places }),
      });
      expect(refused.status, JSON.stringify(places)).toBe(422);
    }
    const refused = await as(author, null, "/me/geo-blocks?lng=en", {
      method: "PUT",
      body: JSON.stringify({ places: ["US-ZZ"] }),
    });
    expect(JSON.stringify(await refused.json())).toContain("Choose countries and US states from the list.");
    expect((await json<{ places: string[] }>(await as(author, null, "/me/geo-blocks"))).places).toEqual(["IT"]);
  });

  it("is a creator's: a member gets 403, a visitor 401", async () => {
    expect(await statusOf(stranger, null, "/me/geo-blocks")).toBe(403);
    const put = await as(stranger, null, "/me/geo-blocks", { method: "PUT", body: JSON.stringify({ places: [] }) });
    expect(put.status).toBe(403);
    expect(await statusOf(null, null, "/me/geo-blocks")).toBe(401);
  });
});
