import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { PostView } from "@shared/contracts/posts";
import { buildJpeg } from "../support/media-fixtures";
import { api, createUser, postJson } from "./factories";

/** The composer's whole path through the real upload API: a post made while its file uploads, then completed. */
describe("a post with a file still uploading", () => {
  it("waits in processing, and the upload's completion publishes it with the file", async () => {
    const creator = await createUser();
    // Photos unmarked: a marked one also needs its marked copy (watermarks.test.ts).
    await env.DB.prepare("UPDATE users SET role = 'creator', monetization_enabled = 1, watermark = 0 WHERE id = ?")
      .bind(creator.user.userId)
      .run();
    const token = creator.token;
    const bytes = buildJpeg();

    const started = await postJson(
      "/uploads",
      { purpose: "post", fileName: "a.jpg", contentType: "image/jpeg", size: bytes.length },
      { token },
    );
    expect(started.status).toBe(201);
    const { mediaId } = (await started.json()) as { mediaId: number };

    const created = await postJson("/posts", { text: "fresh", audience: "everyone", mediaIds: [mediaId] }, { token });
    expect(created.status).toBe(201);
    const post = (await created.json()) as PostView;
    expect(post).toMatchObject({ status: "processing", media: [] });

    const part = await api(`/uploads/${mediaId}/parts/1`, {
      method: "PUT",
      body: new Uint8Array(bytes),
      token,
      headers: { "Content-Type": "application/octet-stream" },
    });
    expect(part.status).toBe(200);
    expect((await postJson(`/uploads/${mediaId}/complete`, {}, { token })).status).toBe(200);

    const row = await env.DB.prepare("SELECT status, published_at FROM posts WHERE id = ?")
      .bind(post.id)
      .first<{ status: string; published_at: string | null }>();
    expect(row!.status).toBe("published");
    expect(row!.published_at).not.toBeNull();
    const processing = (await (await api("/posts/processing", { token })).json()) as { posts: unknown[] };
    expect(processing.posts).toEqual([]);
  });
});
