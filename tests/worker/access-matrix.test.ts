import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { requirePostAccess } from "../../worker/domain/policies/posts";
import type { AppError } from "../../worker/domain/shared/errors";
import { api, createUser, postJson } from "./factories";
import { block, createPost, follow, makeCreator, subscribe, type SeededPost } from "./timeline-fixtures";

/**
 * The access matrix: for every post and media endpoint, each kind of viewer gets exactly what they should
 * for each kind of post, and a locked media key appears in no answer. "open": content and media; a lock reason:
 * text and blurred previews only; "hidden": the post does not exist for them.
 */
type Kind = "everyone" | "followers" | "subscribers" | "paid";
type Viewer = "owner" | "follower" | "subscriber" | "member" | "visitor" | "blocked";
type Access = "open" | "follow" | "subscribe" | "purchase" | "hidden";

const KINDS: Kind[] = ["everyone", "followers", "subscribers", "paid"];
const VIEWERS: Viewer[] = ["owner", "follower", "subscriber", "member", "visitor", "blocked"];

const EXPECTED: Record<Viewer, Record<Kind, Access>> = {
  owner: { everyone: "open", followers: "open", subscribers: "open", paid: "open" },
  follower: { everyone: "open", followers: "open", subscribers: "subscribe", paid: "purchase" },
  subscriber: { everyone: "open", followers: "open", subscribers: "open", paid: "purchase" },
  member: { everyone: "open", followers: "follow", subscribers: "subscribe", paid: "purchase" },
  visitor: { everyone: "open", followers: "follow", subscribers: "subscribe", paid: "purchase" },
  blocked: { everyone: "hidden", followers: "hidden", subscribers: "hidden", paid: "hidden" },
};

/** The timeline holds own posts and followed creators' posts whose audience the viewer meets (paid ones locked). */
const IN_TIMELINE: Record<Viewer, Kind[]> = {
  owner: KINDS,
  follower: ["everyone", "followers", "paid"],
  subscriber: KINDS,
  member: [],
  visitor: [],
  blocked: [],
};

/** Search uses the same audience rule, over every author. */
const IN_SEARCH: Record<Viewer, Kind[]> = {
  owner: KINDS,
  follower: ["everyone", "followers", "paid"],
  subscriber: KINDS,
  member: ["everyone", "paid"],
  visitor: ["everyone", "paid"],
  blocked: [],
};

/** The buttons each viewer gets under a post, by hand: the author is a creator, so others may tip. */
function expectedPermissions(viewer: Viewer, access: Access) {
  const other = viewer !== "owner" && viewer !== "visitor";
  return {
    canEdit: viewer === "owner",
    canDelete: viewer === "owner",
    canLike: viewer !== "visitor" && access === "open",
    canComment: viewer !== "visitor" && access === "open",
    canBookmark: viewer !== "visitor",
    canTip: other,
    canUnlock: other && access === "purchase",
    canReport: other,
  };
}

interface PostBody {
  id: number;
  lock: "follow" | "subscribe" | "purchase" | null;
  viewer: ReturnType<typeof expectedPermissions>;
  media: { url: string }[] | null;
  previews: { previewUrl: string | null }[];
}

let posts: Record<Kind, SeededPost>;
let tokens: Record<Viewer, string | undefined>;
let viewerIds: Record<Viewer, number | null>;
/** Every body each viewer received, to look for locked keys at the end. */
const bodies: Record<Viewer, string[]> = {
  owner: [],
  follower: [],
  subscriber: [],
  member: [],
  visitor: [],
  blocked: [],
};

async function call(viewer: Viewer, path: string, init: RequestInit = {}) {
  const response = await api(path, { ...init, token: tokens[viewer] });
  const text = await response.text();
  bodies[viewer].push(text);
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function media(viewer: Viewer, key: string) {
  const token = tokens[viewer];
  const response = await SELF.fetch(`https://app.test/media/${key}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  await response.arrayBuffer();
  return response.status;
}

const accessOf = (post: PostBody): Access => post.lock ?? "open";

beforeAll(async () => {
  const creator = await makeCreator();
  const [follower, subscriber, member, blocked] = await Promise.all([
    createUser(),
    createUser(),
    createUser(),
    createUser(),
  ]);
  await follow(follower.user.userId, creator.user.userId);
  await subscribe(subscriber.user.userId, creator.user.userId);
  await follow(blocked.user.userId, creator.user.userId);
  await block(creator.user.userId, blocked.user.userId);
  posts = {
    everyone: await createPost(creator.user.userId, { text: "matrix everyone" }),
    followers: await createPost(creator.user.userId, { audience: "followers", text: "matrix followers" }),
    subscribers: await createPost(creator.user.userId, { audience: "subscribers", text: "matrix subscribers" }),
    paid: await createPost(creator.user.userId, { priceCents: 500, text: "matrix paid" }),
  };
  viewerIds = {
    owner: creator.user.userId,
    follower: follower.user.userId,
    subscriber: subscriber.user.userId,
    member: member.user.userId,
    visitor: null,
    blocked: blocked.user.userId,
  };
  tokens = {
    owner: creator.token,
    follower: follower.token,
    subscriber: subscriber.token,
    member: member.token,
    visitor: undefined,
    blocked: blocked.token,
  };
  // Everyone signed in has bookmarked every post (before the block, say): /bookmarks must still filter.
  for (const viewer of [creator, follower, subscriber, member, blocked]) {
    for (const post of Object.values(posts)) {
      await env.DB.prepare("INSERT INTO bookmarks (user_id, post_id, created_at) VALUES (?, ?, ?)")
        .bind(viewer.user.userId, post.id, new Date().toISOString())
        .run();
    }
  }
});

describe.each(VIEWERS)("access matrix: %s", (viewer) => {
  it("GET /api/posts/{id} answers the post as open, locked or not found", async () => {
    for (const kind of KINDS) {
      const expected = EXPECTED[viewer][kind];
      const { status, body } = await call(viewer, `/posts/${posts[kind].id}`);
      if (expected === "hidden") {
        expect(status, kind).toBe(404);
        continue;
      }
      expect(status, kind).toBe(200);
      const post = body as unknown as PostBody;
      expect(accessOf(post), kind).toBe(expected);
      expect(post.viewer, kind).toEqual(expectedPermissions(viewer, expected));
      if (expected === "open") expect(post.media![0]!.url).toBe(`/media/${posts[kind].key}`);
      else {
        expect(post.media).toBeNull();
        expect(post.previews[0]!.previewUrl).toBe(`/media/${posts[kind].previewKey}`);
      }
    }
  });

  it("requirePostAccess: 'see' passes on the posts that exist for the viewer (else 404), 'open' on the open ones (else 403)", async () => {
    const outcome = (postId: number, action: "see" | "open") =>
      requirePostAccess(env.DB, postId, viewerIds[viewer], action).then(
        () => "passes",
        (error: AppError) => error.code,
      );
    for (const kind of KINDS) {
      const expected = EXPECTED[viewer][kind];
      expect(await outcome(posts[kind].id, "see"), kind).toBe(expected === "hidden" ? "not_found" : "passes");
      expect(await outcome(posts[kind].id, "open"), kind).toBe(
        expected === "hidden" ? "not_found" : expected === "open" ? "passes" : "forbidden",
      );
    }
  });

  it("GET /api/timeline holds exactly the posts the viewer reads", async () => {
    const { status, body } = await call(viewer, "/timeline");
    if (viewer === "visitor") return expect(status).toBe(401);
    expect(status).toBe(200);
    const listed = body.posts as PostBody[];
    expect(listed.map((p) => p.id).sort()).toEqual(IN_TIMELINE[viewer].map((kind) => posts[kind].id).sort());
    for (const post of listed)
      expect(accessOf(post)).toBe(EXPECTED[viewer][KINDS.find((k) => posts[k].id === post.id)!]);
  });

  it("GET /api/bookmarks keeps visible bookmarks, locked ones locked", async () => {
    const { status, body } = await call(viewer, "/bookmarks");
    if (viewer === "visitor") return expect(status).toBe(401);
    expect(status).toBe(200);
    const listed = body.posts as PostBody[];
    const visible = KINDS.filter((kind) => EXPECTED[viewer][kind] !== "hidden");
    expect(listed.map((p) => p.id).sort()).toEqual(visible.map((kind) => posts[kind].id).sort());
    for (const post of listed)
      expect(accessOf(post)).toBe(EXPECTED[viewer][KINDS.find((k) => posts[k].id === post.id)!]);
  });

  it("GET /api/search/posts finds only what the viewer may read", async () => {
    const { status, body } = await call(viewer, "/search/posts?q=matrix");
    expect(status).toBe(200);
    const listed = body.posts as PostBody[];
    expect(listed.map((p) => p.id).sort()).toEqual(IN_SEARCH[viewer].map((kind) => posts[kind].id).sort());
    for (const post of listed)
      expect(accessOf(post)).toBe(EXPECTED[viewer][KINDS.find((k) => posts[k].id === post.id)!]);
  });

  it("/media serves the file only when open, the blurred preview whenever the post is visible", async () => {
    for (const kind of KINDS) {
      const expected = EXPECTED[viewer][kind];
      expect(await media(viewer, posts[kind].key), `${kind} original`).toBe(expected === "open" ? 200 : 404);
      expect(await media(viewer, posts[kind].previewKey), `${kind} preview`).toBe(expected === "hidden" ? 404 : 200);
    }
  });

  it("GET comments, like, comment and bookmark: open posts only for content, visible ones for bookmarks", async () => {
    for (const kind of KINDS) {
      const expected = EXPECTED[viewer][kind];
      const id = posts[kind].id;
      const contentStatus = expected === "open" ? 200 : expected === "hidden" ? 404 : 403;
      expect((await call(viewer, `/posts/${id}/comments`)).status, `${kind} comments`).toBe(contentStatus);
      const signedIn = viewer !== "visitor";
      const like = await call(viewer, `/posts/${id}/like`, { method: "POST", body: "{}" });
      expect(like.status, `${kind} like`).toBe(signedIn ? contentStatus : 401);
      const comment = await call(viewer, `/posts/${id}/comments`, {
        method: "POST",
        body: JSON.stringify({ text: "hello" }),
      });
      expect(comment.status, `${kind} comment`).toBe(signedIn ? (contentStatus === 200 ? 201 : contentStatus) : 401);
      const bookmark = await call(viewer, `/posts/${id}/bookmark`, { method: "POST", body: "{}" });
      expect(bookmark.status, `${kind} bookmark`).toBe(!signedIn ? 401 : expected === "hidden" ? 404 : 200);
    }
  });

  it("no answer to this viewer carried a key of a post locked for them", () => {
    const text = bodies[viewer].join("\n");
    expect(text.length).toBeGreaterThan(0);
    for (const kind of KINDS) {
      if (EXPECTED[viewer][kind] !== "open") expect(text, kind).not.toContain(posts[kind].key);
    }
  });
});

describe("guessed and replayed media keys", () => {
  it("a guessed key, a scheduled post's key and a key replayed after unfollowing all get 404", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    const forFollowers = await createPost(creator.user.userId, { audience: "followers" });
    const scheduled = await createPost(creator.user.userId, { status: "scheduled" });
    const fetchAs = async (key: string, token?: string) => {
      const response = await SELF.fetch(`https://app.test/media/${key}`, {
        headers: token ? { Authorization: `Bearer ${token}` } : {},
      });
      await response.arrayBuffer();
      return response.status;
    };
    expect(await fetchAs(forFollowers.key, fan.token)).toBe(200);
    await env.DB.prepare("DELETE FROM follows WHERE follower_id = ?").bind(fan.user.userId).run();
    expect(await fetchAs(forFollowers.key, fan.token)).toBe(404);
    expect(await fetchAs(`posts/${"ab".repeat(16)}.png`, fan.token)).toBe(404);
    expect(await fetchAs(scheduled.key, fan.token)).toBe(404);
    expect(await fetchAs(scheduled.key, creator.token)).toBe(200);
    const liked = await postJson(`/posts/${scheduled.id}/like`, {}, { token: fan.token });
    expect(liked.status).toBe(404);
  });
});
