import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "../../worker/domain/accounts/users";
import { mediaKeyTypeOf, readableMediaKeys } from "../../worker/domain/policies/media";
import { createUser, insertPostMedium } from "./factories";
import { block, follow, makeCreator, PNG, subscribe } from "./timeline-fixtures";

/**
 * One policy per kind of /media key, for each kind of viewer: what /media/{key} answers (200 or 404, and how it may
 * be cached), and that the set-of-keys check of list endpoints (readableMediaKeys) agrees with it key by key.
 * The post is for subscribers: "nonSubscriber" follows its author without subscribing.
 */
type Viewer = "owner" | "subscriber" | "nonSubscriber" | "member" | "visitor" | "blocked" | "admin";
type KeyKind =
  | "avatar"
  | "cover"
  | "postMedia"
  | "poster"
  | "preview"
  | "w640"
  | "w1280"
  | "idPending"
  | "idUnsubmitted"
  | "idDecided";

const VIEWERS: Viewer[] = ["owner", "subscriber", "nonSubscriber", "member", "visitor", "blocked", "admin"];
const KEY_KINDS: KeyKind[] = [
  "avatar",
  "cover",
  "postMedia",
  "poster",
  "preview",
  "w640",
  "w1280",
  "idPending",
  "idUnsubmitted",
  "idDecided",
];

/** Who reads each key (the ID documents' "owner" is their uploader, a member applying to be a creator). */
const READS: Record<KeyKind, Viewer[]> = {
  avatar: VIEWERS,
  cover: VIEWERS,
  postMedia: ["owner", "subscriber"],
  poster: ["owner", "subscriber"],
  preview: ["owner", "subscriber", "nonSubscriber", "member", "visitor", "admin"],
  // A photo's smaller copies are the photo: only for those who may open the post.
  w640: ["owner", "subscriber"],
  w1280: ["owner", "subscriber"],
  idPending: ["admin"],
  idUnsubmitted: ["owner"],
  idDecided: [],
};

const CACHE: Record<KeyKind, string> = {
  avatar: "public, max-age=86400",
  cover: "public, max-age=86400",
  postMedia: "private, max-age=3600",
  poster: "private, max-age=3600",
  preview: "private, max-age=3600",
  w640: "private, max-age=3600",
  w1280: "private, max-age=3600",
  idPending: "private, no-store",
  idUnsubmitted: "private, no-store",
  idDecided: "private, no-store",
};

const ID_KINDS: KeyKind[] = ["idPending", "idUnsubmitted", "idDecided"];
const PICTURE_KINDS = KEY_KINDS.filter((kind) => !ID_KINDS.includes(kind));

const hex = () => crypto.randomUUID().replace(/-/g, "");

interface Person {
  id: number;
  role: Role;
  token: string;
}

let keys: Record<KeyKind, string>;
let viewers: Record<Viewer, Person | null>;
/** The uploader of the ID documents: their "owner". */
let applicant: Person;

/** Who `viewer` is for a key of `kind`: the owner of an ID document is its uploader, of the rest the creator. */
const personFor = (viewer: Viewer, kind: KeyKind) =>
  viewer === "owner" && ID_KINDS.includes(kind) ? applicant : viewers[viewer];

async function put(key: string) {
  await env.MEDIA.put(key, PNG, { httpMetadata: { contentType: "image/png" } });
}

async function idDocument(userId: number, request: "pending" | "approved" | null) {
  const key = `private/${hex()}.png`;
  await put(key);
  const media = await env.DB.prepare(
    "INSERT INTO media (user_id, purpose, kind, status, object_key, content_type, size_bytes, created_at) VALUES (?, 'id_document', 'image', 'ready', ?, 'image/png', 8, ?) RETURNING id",
  )
    .bind(userId, key, new Date().toISOString())
    .first<{ id: number }>();
  if (request) {
    await env.DB.prepare(
      "INSERT INTO creator_requests (user_id, status, document_media_id, created_at) VALUES (?, ?, ?, ?)",
    )
      .bind(userId, request, media!.id, new Date().toISOString())
      .run();
  }
  return key;
}

async function fetchAs(person: Person | null, key: string) {
  const response = await SELF.fetch(`https://app.test/media/${key}`, {
    headers: person ? { Authorization: `Bearer ${person.token}` } : {},
  });
  await response.arrayBuffer();
  return response;
}

beforeAll(async () => {
  const creator = await makeCreator();
  const [subscriber, nonSubscriber, member, blocked, admin, applying] = await Promise.all([
    createUser(),
    createUser(),
    createUser(),
    createUser(),
    createUser(),
    createUser(),
  ]);
  await subscribe(subscriber.user.userId, creator.user.userId);
  await follow(nonSubscriber.user.userId, creator.user.userId);
  await block(blocked.user.userId, creator.user.userId);
  await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(admin.user.userId).run();

  const now = new Date().toISOString();
  const avatar = `public/${hex()}.png`;
  const cover = `public/${hex()}.png`;
  await env.DB.prepare("UPDATE users SET avatar_key = ?, cover_key = ? WHERE id = ?")
    .bind(avatar, cover, creator.user.userId)
    .run();
  const post = await env.DB.prepare(
    "INSERT INTO posts (user_id, text, audience, price_cents, status, published_at, created_at) VALUES (?1, 'for subscribers', 'subscribers', 0, 'published', ?2, ?2) RETURNING id",
  )
    .bind(creator.user.userId, now)
    .first<{ id: number }>();
  const postMedia = `posts/${hex()}.mp4`;
  const poster = `posters/${hex()}.png`;
  const preview = `previews/${hex()}.png`;
  await insertPostMedium(
    post!.id,
    env.DB.prepare(
      "INSERT INTO media (user_id, kind, status, object_key, poster_key, preview_key, content_type, size_bytes, created_at) VALUES (?, 'video', 'ready', ?, ?, ?, 'video/mp4', 8, ?) RETURNING id",
    ).bind(creator.user.userId, postMedia, poster, preview, now),
  );
  const photo = `posts/${hex()}.jpg`;
  const w640 = `scaled/640/${hex()}.webp`;
  const w1280 = `scaled/1280/${hex()}.jpg`;
  await insertPostMedium(
    post!.id,
    env.DB.prepare(
      "INSERT INTO media (user_id, kind, status, object_key, w640_key, w1280_key, content_type, size_bytes, width, height, created_at) VALUES (?, 'image', 'ready', ?, ?, ?, 'image/jpeg', 8, 4000, 3000, ?) RETURNING id",
    ).bind(creator.user.userId, photo, w640, w1280, now),
    1,
  );
  for (const key of [avatar, cover, postMedia, poster, preview, photo, w640, w1280]) await put(key);

  keys = {
    avatar,
    cover,
    postMedia,
    poster,
    preview,
    w640,
    w1280,
    idPending: await idDocument(applying.user.userId, "pending"),
    idUnsubmitted: await idDocument(applying.user.userId, null),
    idDecided: await idDocument(applying.user.userId, "approved"),
  };
  const as = (person: { token: string; user: { userId: number } }, role: Role): Person => ({
    id: person.user.userId,
    role,
    token: person.token,
  });
  applicant = as(applying, "member");
  viewers = {
    owner: as(creator, "creator"),
    subscriber: as(subscriber, "member"),
    nonSubscriber: as(nonSubscriber, "member"),
    member: as(member, "member"),
    visitor: null,
    blocked: as(blocked, "member"),
    admin: as(admin, "admin"),
  };
});

it("tells the kinds of key apart by their shape", () => {
  const expected: Record<KeyKind, string> = {
    avatar: "profile-image",
    cover: "profile-image",
    postMedia: "post-media",
    poster: "poster",
    preview: "preview",
    w640: "w640",
    w1280: "w1280",
    idPending: "id-document",
    idUnsubmitted: "id-document",
    idDecided: "id-document",
  };
  for (const kind of KEY_KINDS) expect(mediaKeyTypeOf(keys[kind]), kind).toBe(expected[kind]);
  expect(mediaKeyTypeOf("posts/../private/x.png")).toBeNull();
  expect(mediaKeyTypeOf(`scaled/800/${hex()}.png`)).toBeNull();
});

describe.each(VIEWERS)("media policies: %s", (viewer) => {
  it("/media/{key} answers each kind of key by its policy, with that kind's caching", async () => {
    for (const kind of KEY_KINDS) {
      const response = await fetchAs(personFor(viewer, kind), keys[kind]);
      const allowed = READS[kind].includes(viewer);
      expect(response.status, kind).toBe(allowed ? 200 : 404);
      if (allowed) expect(response.headers.get("Cache-Control"), kind).toBe(CACHE[kind]);
    }
  });

  it("the set-of-keys check agrees with /media for every key at once", async () => {
    for (const kinds of [PICTURE_KINDS, ID_KINDS]) {
      const person = personFor(viewer, kinds[0]!);
      const readable = await readableMediaKeys(
        env.DB,
        person && { id: person.id, role: person.role },
        kinds.map((kind) => keys[kind]),
      );
      expect([...readable].sort()).toEqual(
        kinds
          .filter((kind) => READS[kind].includes(viewer))
          .map((kind) => keys[kind])
          .sort(),
      );
    }
  });

  it("a guessed key of every kind is 404", async () => {
    for (const key of [
      `public/${hex()}.png`,
      `posts/${hex()}.png`,
      `posters/${hex()}.png`,
      `previews/${hex()}.png`,
      `scaled/640/${hex()}.webp`,
      `scaled/1280/${hex()}.jpg`,
      `private/${hex()}.png`,
      "elsewhere/x.png",
    ]) {
      expect((await fetchAs(viewers[viewer], key)).status, key).toBe(404);
    }
  });
});
