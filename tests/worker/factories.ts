import { env, SELF } from "cloudflare:test";
import { buildSignUp, type SignUpBody } from "../support/people";
import { answerTo } from "./waits";

export { buildSignUp, unique, type SignUpBody } from "../support/people";

let ipCounter = 0;

export const api = (path: string, init: RequestInit & { token?: string; ip?: string } = {}) => {
  const headers = new Headers(init.headers);
  if (init.body !== undefined && !headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  if (init.token) headers.set("Authorization", `Bearer ${init.token}`);
  if (init.ip) headers.set("CF-Connecting-IP", init.ip);
  return answerTo(
    `${init.method ?? "GET"} /api${path}`,
    SELF.fetch(`https://app.test/api${path}`, { ...init, headers }),
  );
};

export const postJson = (
  path: string,
  body: unknown,
  init: { token?: string; ip?: string; headers?: HeadersInit } = {},
) => api(path, { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body), ...init });

/** Signs up through the API and returns the token and user. */
export async function createUser(overrides: Partial<SignUpBody> = {}) {
  const body = buildSignUp(overrides);
  ipCounter++;
  const response = await postJson("/signup", body, { ip: `10.0.${ipCounter % 250}.${(ipCounter * 7) % 250}` });
  if (response.status !== 201) throw new Error(`signup failed: ${response.status} ${await response.text()}`);
  const result = (await response.json()) as { token: string; user: { userId: number; username: string } };
  return { ...result, input: body };
}

export async function latestMailTo(address: string) {
  return env.DB.prepare("SELECT subject, text_body FROM dev_mailbox WHERE to_address = ? ORDER BY id DESC LIMIT 1")
    .bind(address.toLowerCase())
    .first<{ subject: string; text_body: string }>();
}

export const linkIn = (text: string) => /https?:\/\/\S+/.exec(text)?.[0] ?? null;

export async function countRows(table: string) {
  const row = await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>();
  return row?.n ?? 0;
}

/** Makes `fanId` follow `count` more creators who post nothing, as the ways for fans who follow many need. */
export async function followQuietCreators(fanId: number, count: number) {
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
     INSERT INTO users (username, name, email, password_hash, date_of_birth, account_type, role, created_at, updated_at)
     SELECT 'quiet_' || ?1 || '_' || i, 'Quiet', 'quiet_' || ?1 || '_' || i || '@example.test', 'x', '1990-01-01', 'other', 'creator', '2026-01-01', '2026-01-01' FROM n`,
  )
    .bind(fanId, count)
    .run();
  await env.DB.prepare(
    `INSERT INTO follows (follower_id, creator_id, created_at) SELECT ?1, id, '2026-01-01' FROM users WHERE username LIKE 'quiet_' || ?1 || '_%'`,
  )
    .bind(fanId)
    .run();
}

/**
 * Runs `insert` (an INSERT INTO media … RETURNING id) and puts the new file in post `postId` at `position`: a file
 * is a vault item a post uses (post_media).
 */
export async function insertPostMedium(postId: number, insert: D1PreparedStatement, position = 0): Promise<number> {
  const row = await insert.first<{ id: number }>();
  await env.DB.prepare("INSERT INTO post_media (post_id, media_id, position) VALUES (?, ?, ?)")
    .bind(postId, row!.id, position)
    .run();
  return row!.id;
}
