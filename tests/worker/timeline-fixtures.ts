import { env } from "cloudflare:test";
import { createUser, insertPostMedium } from "./factories";

/** Seeds for the timeline, interactions and access-matrix tests: rows straight into D1, as e2e seeds do. */

export async function makeCreator() {
  const creator = await createUser();
  await env.DB.prepare("UPDATE users SET role = 'creator', monetization_enabled = 1 WHERE id = ?")
    .bind(creator.user.userId)
    .run();
  return creator;
}

export const follow = (followerId: number, creatorId: number) =>
  env.DB.prepare("INSERT OR IGNORE INTO follows (follower_id, creator_id, created_at) VALUES (?, ?, ?)")
    .bind(followerId, creatorId, new Date().toISOString())
    .run();

export async function subscribe(fanId: number, creatorId: number) {
  const now = new Date();
  await follow(fanId, creatorId);
  await env.DB.prepare(
    "INSERT INTO subscriptions (fan_id, creator_id, period, price_cents, status, started_at, current_period_end) VALUES (?, ?, 'month', 0, 'active', ?, ?)",
  )
    .bind(fanId, creatorId, now.toISOString(), new Date(now.getTime() + 30 * 86_400_000).toISOString())
    .run();
}

export const block = (blockerId: number, blockedId: number) =>
  env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)")
    .bind(blockerId, blockedId, new Date().toISOString())
    .run();

export interface SeededPost {
  id: number;
  key: string;
  previewKey: string;
}

let clock = Date.parse("2026-05-01T00:00:00.000Z");

/**
 * A published post with one ready image (original and blurred preview in R2). Each post is published one second
 * after the previous one, so the order of creation is the timeline's order.
 */
export async function createPost(
  userId: number,
  options: {
    audience?: "everyone" | "followers" | "subscribers";
    priceCents?: number;
    text?: string;
    status?: "published" | "scheduled";
  } = {},
): Promise<SeededPost> {
  clock += 1000;
  const at = new Date(clock).toISOString();
  const status = options.status ?? "published";
  const post = await env.DB.prepare(
    "INSERT INTO posts (user_id, text, audience, price_cents, status, published_at, scheduled_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
  )
    .bind(
      userId,
      options.text ?? `post ${clock}`,
      options.audience ?? "everyone",
      options.priceCents ?? 0,
      status,
      status === "published" ? at : null,
      status === "scheduled" ? "2099-01-01T00:00:00.000Z" : null,
      at,
    )
    .first<{ id: number }>();
  const key = `posts/${crypto.randomUUID().replace(/-/g, "")}.png`;
  const previewKey = `previews/${crypto.randomUUID().replace(/-/g, "")}.png`;
  for (const k of [key, previewKey]) await env.MEDIA.put(k, PNG, { httpMetadata: { contentType: "image/png" } });
  await insertPostMedium(
    post!.id,
    env.DB.prepare(
      "INSERT INTO media (user_id, kind, status, object_key, preview_key, content_type, size_bytes, created_at) VALUES (?, 'image', 'ready', ?, ?, 'image/png', 8, ?) RETURNING id",
    ).bind(userId, key, previewKey, at),
  );
  return { id: post!.id, key, previewKey };
}

export const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
