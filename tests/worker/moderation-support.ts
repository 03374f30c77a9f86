import { env, SELF } from "cloudflare:test";
import { api, createUser, postJson, insertPostMedium } from "./factories";
import { answerTo } from "./waits";

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const hex = () => crypto.randomUUID().replace(/-/g, "");

export async function createAdmin() {
  const admin = await createUser();
  await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(admin.user.userId).run();
  return admin;
}

/** A member who has done everything /becomeCreator asks before submitting: verified email, avatar, cover. */
export async function createApplicant() {
  const member = await createUser();
  await env.DB.prepare("UPDATE users SET email_verified_at = ?, avatar_key = ?, cover_key = ? WHERE id = ?")
    .bind(new Date().toISOString(), `public/avatars/${hex()}.png`, `public/covers/${hex()}.png`, member.user.userId)
    .run();
  return member;
}

/** An uploaded, ready private image (what uploadFile with that purpose leaves behind), stored in R2 too. */
export async function createIdImage(userId: number, purpose: "id_document" | "id_selfie" | "post", status = "ready") {
  const key = `private/${hex()}.png`;
  await env.MEDIA.put(key, PNG, { httpMetadata: { contentType: "image/png" } });
  const row = await env.DB.prepare(
    "INSERT INTO media (user_id, purpose, kind, status, object_key, content_type, size_bytes, created_at) VALUES (?, ?, 'image', ?, ?, 'image/png', 8, ?) RETURNING id",
  )
    .bind(userId, purpose, status, key, new Date().toISOString())
    .first<{ id: number }>();
  return { id: row!.id, key };
}

export async function submitApplication(token: string, userId: number, language?: string) {
  const document = await createIdImage(userId, "id_document");
  const selfie = await createIdImage(userId, "id_selfie");
  const headers = language ? { "Accept-Language": language } : undefined;
  const response = await postJson(
    "/creatorRequest",
    { documentMediaId: document.id, selfieMediaId: selfie.id },
    { token, headers },
  );
  return { response, document, selfie };
}

export async function createPost(userId: number, audience: "everyone" | "followers" | "subscribers" = "everyone") {
  const at = new Date().toISOString();
  const post = await env.DB.prepare(
    "INSERT INTO posts (user_id, text, audience, published_at, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
  )
    .bind(userId, `a ${audience} post`, audience, at, at)
    .first<{ id: number }>();
  const key = `posts/${hex()}.png`;
  await env.MEDIA.put(key, PNG, { httpMetadata: { contentType: "image/png" } });
  await insertPostMedium(
    post!.id,
    env.DB.prepare(
      "INSERT INTO media (user_id, kind, status, object_key, content_type, size_bytes, created_at) VALUES (?, 'image', 'ready', ?, 'image/png', 8, ?) RETURNING id",
    ).bind(userId, key, at),
  );
  return { postId: post!.id, key };
}

export const del = (path: string, token?: string) => api(path, { method: "DELETE", token });

/** Reads the body to the end: an unread R2 stream would keep the test's isolated storage open. */
export async function fetchMedia(key: string, token?: string) {
  const response = await answerTo(
    `GET /media/${key}`,
    SELF.fetch(`https://app.test/media/${key}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} }),
  );
  await response.arrayBuffer();
  return response.status;
}
