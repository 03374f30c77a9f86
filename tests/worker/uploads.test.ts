import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { discardAbandonedUploads } from "../../worker/domain/media/discard-abandoned-uploads";
import { PART_SIZE } from "../../worker/domain/media/limits";
import { buildJpeg, contains, GPS_TAG, PNG_1x1 } from "../support/media-fixtures";
import de from "../../app/locales/de.json";
import { api, createUser, postJson } from "./factories";

/** A creator whose photos are not marked: what every upload gets (watermarks.test.ts: marked photos). */
async function creator() {
  const user = await createUser();
  await env.DB.prepare("UPDATE users SET role='creator', monetization_enabled=1, watermark=0 WHERE id=?")
    .bind(user.user.userId)
    .run();
  return user;
}

async function start(token: string, body: { purpose?: string; fileName?: string; contentType: string; size: number }) {
  return postJson("/uploads", { purpose: "post", fileName: "file", ...body }, { token });
}

const putBytes = (path: string, bytes: Uint8Array, token: string) =>
  api(path, {
    method: "PUT",
    body: new Uint8Array(bytes),
    token,
    headers: { "Content-Type": "application/octet-stream" },
  });

/** Uploads `bytes` in one part and completes; answers the completion response. */
async function upload(token: string, bytes: Uint8Array, contentType: string, purpose = "post") {
  const started = await start(token, { purpose, contentType, size: bytes.length });
  expect(started.status).toBe(201);
  const { mediaId } = (await started.json()) as { mediaId: number };
  expect((await putBytes(`/uploads/${mediaId}/parts/1`, bytes, token)).status).toBe(200);
  const completed = await postJson(`/uploads/${mediaId}/complete`, {}, { token });
  return { mediaId, completed };
}

async function storedKeys() {
  const listed = await env.MEDIA.list();
  return listed.objects.map((o) => o.key);
}

async function readMedia(url: string, init: { token?: string; range?: string; method?: string } = {}) {
  const headers = new Headers();
  if (init.token) headers.set("Authorization", `Bearer ${init.token}`);
  if (init.range) headers.set("Range", init.range);
  const response = await SELF.fetch(`https://app.test${url}`, { method: init.method ?? "GET", headers });
  return { status: response.status, headers: response.headers, body: new Uint8Array(await response.arrayBuffer()) };
}

describe("uploads", () => {
  it("stores a JPEG without its GPS EXIF, XMP and comment, still a JPEG, served to its uploader", async () => {
    const { token } = await creator();
    const original = buildJpeg({ gps: true, comment: "shot at home", width: 3, height: 2 });
    expect(contains(original, "Exif")).toBe(true);
    const { mediaId, completed } = await upload(token, original, "image/jpeg");
    expect(completed.status).toBe(200);
    const media = (await completed.json()) as { id: number; kind: string; url: string };
    expect(media).toMatchObject({ id: mediaId, kind: "image" });
    expect(media.url).toMatch(/^\/media\/posts\/[a-f0-9]{32}\.jpg$/);

    const stored = new Uint8Array(await (await env.MEDIA.get(media.url.slice("/media/".length)))!.arrayBuffer());
    expect([...stored.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect([...stored.subarray(-2)]).toEqual([0xff, 0xd9]);
    for (const trace of ["Exif", "GPSLatitude", "shot at home", "xmpmeta"]) expect(contains(stored, trace)).toBe(false);
    expect(contains(stored, GPS_TAG)).toBe(false);
    const row = await env.DB.prepare("SELECT status, width, height, size_bytes, upload_id FROM media WHERE id = ?")
      .bind(mediaId)
      .first();
    expect(row).toEqual({ status: "ready", width: 3, height: 2, size_bytes: stored.length, upload_id: null });

    // The uploader sees it in the composer; nobody else does while it belongs to no post.
    expect((await readMedia(media.url, { token })).status).toBe(200);
    expect((await readMedia(media.url)).status).toBe(404);
    expect((await readMedia(media.url, { token: (await createUser()).token })).status).toBe(404);
  });

  it("refuses a text file named x.jpg and declared image/jpeg, and stores nothing", async () => {
    const { token } = await creator();
    const text = new TextEncoder().encode("<script>alert(1)</script> not an image at all");
    const started = await start(token, { fileName: "x.jpg", contentType: "image/jpeg", size: text.length });
    const { mediaId } = (await started.json()) as { mediaId: number };
    const refused = await putBytes(`/uploads/${mediaId}/parts/1`, text, token);
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { message: string }).message).toBe("This file type is not supported.");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM media").first("n")).toBe(0);
    expect(await storedKeys()).toEqual([]);
    // A PNG declared as JPEG lies too.
    const png = await start(token, { contentType: "image/jpeg", size: PNG_1x1.length });
    const pngId = ((await png.json()) as { mediaId: number }).mediaId;
    expect((await putBytes(`/uploads/${pngId}/parts/1`, PNG_1x1, token)).status).toBe(422);
    // Undeclarable types are refused before anything exists.
    const html = await start(token, { fileName: "x.html", contentType: "text/html", size: 10 });
    expect(html.status).toBe(422);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM media").first("n")).toBe(0);
  });

  it("refuses an image cut off before its end when the upload completes, and keeps nothing of it", async () => {
    const { token } = await creator();
    const expected = "This image is incomplete or damaged. Please upload it again.";
    for (const [cut, contentType] of [
      [PNG_1x1.subarray(0, 40), "image/png"],
      [buildJpeg().subarray(0, -2), "image/jpeg"],
    ] as const) {
      const { mediaId, completed } = await upload(token, cut, contentType);
      expect(completed.status).toBe(422);
      expect(await completed.json()).toEqual({ message: expected, errors: { file: [expected] } });
      expect((await api(`/uploads/${mediaId}`, { token })).status).toBe(404);
    }
    // In the reader's language.
    const started = await start(token, { contentType: "image/png", size: 40 });
    const { mediaId } = (await started.json()) as { mediaId: number };
    expect((await putBytes(`/uploads/${mediaId}/parts/1`, PNG_1x1.subarray(0, 40), token)).status).toBe(200);
    const german = await postJson(`/uploads/${mediaId}/complete`, {}, { token, headers: { "Accept-Language": "de" } });
    expect(german.status).toBe(422);
    expect(((await german.json()) as { message: string }).message).toBe(de[expected]);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM media").first("n")).toBe(0);
    expect(await storedKeys()).toEqual([]);
  });

  it("refuses oversized files before storing anything, and purposes the user may not use", async () => {
    const { token } = await creator();
    const image = await start(token, { contentType: "image/jpeg", size: 20 * 1024 * 1024 + 1 });
    expect(image.status).toBe(413);
    expect(((await image.json()) as { message: string }).message).toBe("Images can be at most 20 MB.");
    const video = await start(token, { contentType: "video/mp4", size: 2 * 1024 * 1024 * 1024 + 1 });
    expect(video.status).toBe(413);
    const member = await createUser();
    expect((await start(member.token, { contentType: "image/jpeg", size: 100 })).status).toBe(403);
    expect((await start(member.token, { purpose: "avatar", contentType: "video/mp4", size: 100 })).status).toBe(422);
    for (const bad of [{ size: 0 }, { size: -1 }, { size: "big" }, { purpose: "anything" }, { contentType: "" }]) {
      expect(
        (
          await postJson(
            "/uploads",
            { purpose: "post", fileName: "f", contentType: "image/png", size: 5, ...bad },
            { token },
          )
        ).status,
      ).toBe(422);
    }
    expect(
      (await postJson("/uploads", { purpose: "avatar", fileName: "a.png", contentType: "image/png", size: 5 })).status,
    ).toBe(401);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM media").first("n")).toBe(0);
    expect(await storedKeys()).toEqual([]);
  });

  it("resumes a multipart upload: status lists the parts received, part 2 after part 1 completes it", async () => {
    const { token } = await creator();
    const video = new Uint8Array(PART_SIZE + 1000);
    video.set([0, 0, 0, 0x18, ...new TextEncoder().encode("ftypisom")]);
    video[PART_SIZE + 999] = 7;
    const started = await start(token, { contentType: "video/mp4", size: video.length });
    expect(await started.json()).toMatchObject({ partSize: PART_SIZE, partCount: 2 });
    const { mediaId } = (await env.DB.prepare("SELECT id AS mediaId FROM media").first<{ mediaId: number }>())!;

    expect((await putBytes(`/uploads/${mediaId}/parts/2`, video.subarray(PART_SIZE), token)).status).toBe(422);
    expect((await putBytes(`/uploads/${mediaId}/parts/1`, video.subarray(0, 100), token)).status).toBe(422);
    expect((await putBytes(`/uploads/${mediaId}/parts/3`, video.subarray(PART_SIZE), token)).status).toBe(422);
    expect((await putBytes(`/uploads/${mediaId}/parts/1`, video.subarray(0, PART_SIZE), token)).status).toBe(200);
    expect((await postJson(`/uploads/${mediaId}/complete`, {}, { token })).status).toBe(422);
    expect(await (await api(`/uploads/${mediaId}`, { token })).json()).toEqual({
      status: "uploading",
      partSize: PART_SIZE,
      partCount: 2,
      receivedParts: [1],
      postId: null,
      renditions: [],
      watermark: null,
    });

    // Someone else can neither see nor feed it.
    const other = await creator();
    expect((await api(`/uploads/${mediaId}`, { token: other.token })).status).toBe(404);
    expect((await putBytes(`/uploads/${mediaId}/parts/2`, video.subarray(PART_SIZE), other.token)).status).toBe(404);
    expect((await postJson(`/uploads/${mediaId}/complete`, {}, { token: other.token })).status).toBe(404);
    expect((await api(`/uploads/${mediaId}`, { method: "DELETE", token: other.token })).status).toBe(404);

    expect((await putBytes(`/uploads/${mediaId}/parts/2`, video.subarray(PART_SIZE), token)).status).toBe(200);
    const completed = await postJson(`/uploads/${mediaId}/complete`, {}, { token });
    expect(completed.status).toBe(200);
    const media = (await completed.json()) as { kind: string; url: string };
    expect(media.kind).toBe("video");
    expect(await (await api(`/uploads/${mediaId}`, { token })).json()).toMatchObject({
      status: "ready",
      receivedParts: [],
    });

    const stored = await env.MEDIA.head(media.url.slice("/media/".length));
    expect(stored?.size).toBe(video.length);
  });

  it("serves byte ranges: 206 with Content-Range, 416 outside the file, HEAD without a body, ETag revalidation", async () => {
    const { token } = await creator();
    const { completed } = await upload(token, PNG_1x1, "image/png");
    const { url } = (await completed.json()) as { url: string };
    const size = PNG_1x1.length;

    const whole = await readMedia(url, { token });
    expect(whole.headers.get("Accept-Ranges")).toBe("bytes");
    expect(whole.headers.get("Cache-Control")).toBe("private, max-age=3600");
    const first = await readMedia(url, { token, range: "bytes=0-7" });
    expect(first.status).toBe(206);
    expect(first.headers.get("Content-Range")).toBe(`bytes 0-7/${size}`);
    expect(first.body).toEqual(PNG_1x1.subarray(0, 8));
    const tail = await readMedia(url, { token, range: "bytes=-4" });
    expect(tail.status).toBe(206);
    expect(tail.body).toEqual(PNG_1x1.subarray(size - 4));
    const open = await readMedia(url, { token, range: `bytes=${size - 2}-` });
    expect(open.headers.get("Content-Range")).toBe(`bytes ${size - 2}-${size - 1}/${size}`);
    const beyond = await readMedia(url, { token, range: `bytes=${size}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("Content-Range")).toBe(`bytes */${size}`);
    expect((await readMedia(url, { token, range: "bytes=5-2" })).status).toBe(416);

    const head = await readMedia(url, { token, method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("Content-Length")).toBe(String(size));
    expect(head.body.length).toBe(0);

    const etag = whole.headers.get("ETag")!;
    const revalidated = await SELF.fetch(`https://app.test${url}`, {
      headers: { Authorization: `Bearer ${token}`, "If-None-Match": etag },
    });
    expect(revalidated.status).toBe(304);
    await revalidated.arrayBuffer();
  });

  it("keeps ID documents private: the uploader before submission, admins while the request is pending, nobody else, never cached", async () => {
    const member = await createUser();
    const { mediaId, completed } = await upload(member.token, PNG_1x1, "image/png", "id_document");
    const { url } = (await completed.json()) as { url: string };
    expect(url).toMatch(/^\/media\/private\/[a-f0-9]{32}\.png$/);

    const own = await readMedia(url, { token: member.token });
    expect(own.status).toBe(200);
    expect(own.headers.get("Cache-Control")).toBe("private, no-store");
    expect((await readMedia(url)).status).toBe(404);
    expect((await readMedia(url, { token: (await createUser()).token })).status).toBe(404);
    const admin = await createUser();
    await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(admin.user.userId).run();
    // Not submitted yet: nothing for an admin to review.
    expect((await readMedia(url, { token: admin.token })).status).toBe(404);

    // Once submitted with a creator request, only admins read it.
    await env.DB.prepare("INSERT INTO creator_requests (user_id, document_media_id, created_at) VALUES (?, ?, ?)")
      .bind(member.user.userId, mediaId, new Date().toISOString())
      .run();
    expect((await readMedia(url, { token: member.token })).status).toBe(404);
    expect((await readMedia(url, { token: admin.token })).status).toBe(200);

    // Guessed keys answer like missing ones.
    expect(
      (await readMedia("/media/private/00000000000000000000000000000000.png", { token: admin.token })).status,
    ).toBe(404);
    expect((await readMedia("/media/posts/0123456789abcdef0123456789abcdef.jpg", { token: admin.token })).status).toBe(
      404,
    );
  });

  it("sets the avatar from an uploaded image and deletes the one it replaces", async () => {
    const member = await createUser();
    const first = await upload(member.token, PNG_1x1, "image/png", "avatar");
    const firstUrl = ((await first.completed.json()) as { url: string }).url;
    expect(firstUrl).toMatch(/^\/media\/public\//);
    expect((await postJson("/me/avatar", { mediaId: first.mediaId }, { token: member.token })).status).toBe(200);
    expect((await readMedia(firstUrl)).headers.get("Cache-Control")).toBe("public, max-age=86400");

    const second = await upload(member.token, buildJpeg(), "image/jpeg", "avatar");
    expect((await postJson("/me/cover", { mediaId: second.mediaId }, { token: member.token })).status).toBe(422);
    const set = await postJson("/me/avatar", { mediaId: second.mediaId }, { token: member.token });
    expect(await set.json()).toEqual({ url: expect.stringMatching(/^\/media\/public\/[a-f0-9]{32}\.jpg$/) });
    const me = (await (await api("/me", { token: member.token })).json()) as { avatarUrl: string };
    expect(me.avatarUrl).not.toBe(firstUrl);
    expect((await readMedia(firstUrl)).status).toBe(404);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM media WHERE id = ?").bind(first.mediaId).first("n")).toBe(0);

    const other = await createUser();
    expect((await postJson("/me/avatar", { mediaId: second.mediaId }, { token: other.token })).status).toBe(404);
  });

  it("takes a preview and a poster from the browser, checked by magic bytes and size", async () => {
    const { token } = await creator();
    const video = new Uint8Array(64);
    video.set([0x1a, 0x45, 0xdf, 0xa3]);
    const started = await start(token, { contentType: "video/webm", size: video.length });
    const { mediaId } = (await started.json()) as { mediaId: number };
    const poster = await putBytes(`/uploads/${mediaId}/poster`, buildJpeg({ gps: true }), token);
    expect(poster.status).toBe(200);
    const preview = await putBytes(`/uploads/${mediaId}/preview`, PNG_1x1, token);
    expect(await preview.json()).toEqual({ url: expect.stringMatching(/^\/media\/previews\/[a-f0-9]{32}\.png$/) });
    expect(
      (await putBytes(`/uploads/${mediaId}/preview`, new TextEncoder().encode("GIF89a not really"), token)).status,
    ).toBe(422);
    expect((await putBytes(`/uploads/${mediaId}/preview`, new Uint8Array(64 * 1024 + 1), token)).status).toBe(413);
    const row = await env.DB.prepare("SELECT poster_key, preview_key FROM media WHERE id = ?")
      .bind(mediaId)
      .first<{ poster_key: string; preview_key: string }>();
    const storedPoster = new Uint8Array(await (await env.MEDIA.get(row!.poster_key))!.arrayBuffer());
    expect(contains(storedPoster, "Exif")).toBe(false);

    // Deleting the upload takes its poster and preview with it.
    expect((await api(`/uploads/${mediaId}`, { method: "DELETE", token })).status).toBe(204);
    expect(await storedKeys()).toEqual([]);
  });

  it("takes a photo's copies 640 and 1280 pixels wide from the browser, exactly that wide; a post offers them, deleting takes them", async () => {
    const { token } = await creator();
    const started = await start(token, {
      contentType: "image/jpeg",
      size: buildJpeg({ width: 4000, height: 3000 }).length,
    });
    const { mediaId } = (await started.json()) as { mediaId: number };
    const w640 = await putBytes(`/uploads/${mediaId}/w640`, buildJpeg({ width: 640, height: 480, gps: true }), token);
    expect(w640.status).toBe(200);
    const { url: w640Url } = (await w640.json()) as { url: string };
    expect(w640Url).toMatch(/^\/media\/scaled\/640\/[a-f0-9]{32}\.jpg$/);
    expect(
      contains(new Uint8Array(await (await env.MEDIA.get(w640Url.slice("/media/".length)))!.arrayBuffer()), "Exif"),
    ).toBe(false);
    // A copy of another width than its address says is refused, in the reader's language, and changes nothing.
    const wrong = await api(`/uploads/${mediaId}/w1280`, {
      method: "PUT",
      body: new Uint8Array(buildJpeg({ width: 1279, height: 959 })),
      token,
      headers: { "Content-Type": "application/octet-stream", "Accept-Language": "de" },
    });
    expect(wrong.status).toBe(422);
    expect(((await wrong.json()) as { message: string }).message).toBe(
      de["A scaled copy must be exactly {{width}} pixels wide."].replace("{{width}}", "1280"),
    );
    expect((await putBytes(`/uploads/${mediaId}/w640`, new Uint8Array(512 * 1024 + 1), token)).status).toBe(413);
    const w1280 = await putBytes(`/uploads/${mediaId}/w1280`, buildJpeg({ width: 1280, height: 960 }), token);
    expect(w1280.status).toBe(200);
    const { url: w1280Url } = (await w1280.json()) as { url: string };
    expect(await env.DB.prepare("SELECT w640_key, w1280_key FROM media WHERE id = ?").bind(mediaId).first()).toEqual({
      w640_key: w640Url.slice("/media/".length),
      w1280_key: w1280Url.slice("/media/".length),
    });
    expect(
      (await putBytes(`/uploads/${mediaId}/parts/1`, buildJpeg({ width: 4000, height: 3000 }), token)).status,
    ).toBe(200);
    expect((await postJson(`/uploads/${mediaId}/complete`, {}, { token })).status).toBe(200);
    const created = await postJson(
      "/posts",
      { text: "a big photo", audience: "everyone", mediaIds: [mediaId] },
      { token },
    );
    expect(created.status).toBe(201);
    const post = (await created.json()) as {
      id: number;
      media: { id: number; url: string; width: number; scaled: unknown }[];
    };
    expect(post.media[0]!.width).toBe(4000);
    expect(post.media[0]!.scaled).toEqual([
      { width: 640, url: w640Url },
      { width: 1280, url: w1280Url },
    ]);

    // A photo has copies, whatever it was uploaded for (a story's may be used in a post too): not a video.
    const video = new Uint8Array(64);
    video.set([0x1a, 0x45, 0xdf, 0xa3]);
    const videoUpload = (await (await start(token, { contentType: "video/webm", size: video.length })).json()) as {
      mediaId: number;
    };
    expect(
      (await putBytes(`/uploads/${videoUpload.mediaId}/w640`, buildJpeg({ width: 640, height: 480 }), token)).status,
    ).toBe(422);
    const story = (await (await start(token, { purpose: "story", contentType: "image/jpeg", size: 100 })).json()) as {
      mediaId: number;
    };
    expect(
      (await putBytes(`/uploads/${story.mediaId}/w640`, buildJpeg({ width: 640, height: 480 }), token)).status,
    ).toBe(200);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM media WHERE w640_key IS NOT NULL").first("n")).toBe(2);

    // Deleting the post keeps the photo and its copies in the vault; deleting it there takes them all.
    const stored = [post.media[0]!.url, w640Url, w1280Url].map((url) => url.slice("/media/".length));
    expect((await api(`/posts/${post.id}`, { method: "DELETE", token })).status).toBe(200);
    for (const key of stored) expect(await env.MEDIA.head(key), key).not.toBeNull();
    expect((await api(`/vault/${post.media[0]!.id}`, { method: "DELETE", token })).status).toBe(204);
    for (const key of stored) expect(await env.MEDIA.head(key), key).toBeNull();
  });

  it("limits unfinished uploads per user; the cron discards unfinished or unused files after a day, never a vault file", async () => {
    const { token } = await creator();
    const kept = await upload(token, PNG_1x1, "image/png", "avatar");
    expect((await postJson("/me/avatar", { mediaId: kept.mediaId }, { token })).status).toBe(200);
    // A finished content file nothing uses is in the vault: it stays.
    const inVault = await upload(token, PNG_1x1, "image/png", "message");
    expect(inVault.completed.status).toBe(200);
    const unused = await upload(token, PNG_1x1, "image/png", "cover");
    expect(unused.completed.status).toBe(200);
    for (let i = 0; i < 40; i++) expect((await start(token, { contentType: "image/png", size: 100 })).status).toBe(201);
    const refused = await start(token, { contentType: "image/png", size: 100 });
    expect(refused.status).toBe(429);

    const { mediaId } = (await env.DB.prepare(
      "SELECT id AS mediaId FROM media WHERE status = 'uploading' LIMIT 1",
    ).first<{ mediaId: number }>())!;
    const png = new Uint8Array(100);
    png.set(PNG_1x1.subarray(0, 16));
    expect((await putBytes(`/uploads/${mediaId}/parts/1`, png, token)).status).toBe(200);

    const dayAgo = new Date(Date.now() - 25 * 3600 * 1000).toISOString();
    await env.DB.prepare("UPDATE media SET created_at = ?").bind(dayAgo).run();
    expect(await discardAbandonedUploads(env)).toBe(41);
    expect(
      await env.DB.prepare("SELECT id FROM media ORDER BY id")
        .all()
        .then((r) => r.results),
    ).toEqual([{ id: kept.mediaId }, { id: inVault.mediaId }]);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM media_parts").first("n")).toBe(0);
    expect((await start(token, { contentType: "image/png", size: 100 })).status).toBe(201);
  });

  it("answers 422, not 500, when R2 no longer knows the multipart upload", async () => {
    const { token } = await creator();
    const started = await start(token, { contentType: "image/png", size: PNG_1x1.length });
    const { mediaId } = (await started.json()) as { mediaId: number };
    const row = await env.DB.prepare("SELECT object_key, upload_id FROM media WHERE id = ?")
      .bind(mediaId)
      .first<{ object_key: string; upload_id: string }>();
    await env.MEDIA.resumeMultipartUpload(row!.object_key, row!.upload_id).abort();
    const refused = await putBytes(`/uploads/${mediaId}/parts/1`, PNG_1x1, token);
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { message: string }).message).toBe(
      "The upload could not be finished. Please upload the file again.",
    );
  });

  it("answers bad paths, missing sessions and oversized bodies with 4xx and stores nothing", async () => {
    const { token } = await creator();
    const started = await start(token, { contentType: "video/mp4", size: PART_SIZE * 2 });
    const { mediaId } = (await started.json()) as { mediaId: number };
    for (const path of [
      `/uploads/abc/parts/1`,
      `/uploads/${mediaId}/parts/0`,
      `/uploads/${mediaId}/parts/10001`,
      `/uploads/${mediaId}/parts/x`,
    ]) {
      expect((await putBytes(path, PNG_1x1, token)).status).toBe(422);
    }
    expect((await api(`/uploads/-1`, { token })).status).toBe(422);
    expect((await putBytes(`/uploads/${mediaId}/parts/1`, PNG_1x1, "")).status).toBe(401);
    expect((await putBytes(`/uploads/${mediaId}/parts/1`, new Uint8Array(PART_SIZE + 1), token)).status).toBe(413);
    expect((await putBytes(`/uploads/${mediaId}/poster`, new Uint8Array(1024 * 1024 + 1), token)).status).toBe(413);
    expect((await postJson(`/me/avatar`, { mediaId: "x" }, { token })).status).toBe(422);
    expect((await postJson(`/me/avatar`, { mediaId }, { token })).status).toBe(422);
    expect(await (await api(`/uploads/${mediaId}`, { token })).json()).toMatchObject({ receivedParts: [] });
    expect(await storedKeys()).toEqual([]);
  });

  it("the cron marks a post's file left unfinished for a day failed, keeping the post and its row", async () => {
    const author = await creator();
    const started = await start(author.token, { contentType: "video/mp4", size: 100 });
    const { mediaId } = (await started.json()) as { mediaId: number };
    const at = new Date().toISOString();
    const post = await env.DB.prepare(
      "INSERT INTO posts (user_id, text, audience, status, created_at) VALUES (?, 'soon', 'everyone', 'processing', ?) RETURNING id",
    )
      .bind(author.user.userId, at)
      .first<{ id: number }>();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO post_media (post_id, media_id, position) VALUES (?, ?, 0)").bind(post!.id, mediaId),
      env.DB.prepare("UPDATE media SET created_at = ? WHERE id = ?").bind(
        new Date(Date.now() - 25 * 3600 * 1000).toISOString(),
        mediaId,
      ),
    ]);
    expect(await discardAbandonedUploads(env)).toBe(1);
    expect(await env.DB.prepare("SELECT status, upload_id FROM media WHERE id = ?").bind(mediaId).first()).toEqual({
      status: "failed",
      upload_id: null,
    });
    expect(await (await api(`/uploads/${mediaId}`, { token: author.token })).json()).toMatchObject({
      status: "failed",
      postId: post!.id,
    });
  });
  it("a file some record uses is not deleted by its uploader: a post's, a message's, a mass message's being sent; a profile image in use is cleared from the profile", async () => {
    const person = await creator();
    const { token } = person;
    const fan = await createUser();
    const deleteUpload = (mediaId: number) => api(`/uploads/${mediaId}`, { method: "DELETE", token });
    const refusedWith = async (mediaId: number, text: string) => {
      const refused = await deleteUpload(mediaId);
      expect(refused.status, text).toBe(422);
      expect(await refused.json()).toEqual({ message: text, errors: { file: [text] } });
      expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM media WHERE id = ?").bind(mediaId).first("n"), text).toBe(
        1,
      );
    };

    const inPost = await upload(token, PNG_1x1, "image/png");
    expect(
      (await postJson("/posts", { text: "a photo", audience: "everyone", mediaIds: [inPost.mediaId] }, { token }))
        .status,
    ).toBe(201);
    await refusedWith(inPost.mediaId, "This file belongs to a post: edit the post to remove it.");

    await env.DB.prepare("INSERT INTO follows (follower_id, creator_id, created_at) VALUES (?, ?, ?)")
      .bind(fan.user.userId, person.user.userId, new Date().toISOString())
      .run();
    const opened = await postJson("/conversations", { username: fan.user.username }, { token });
    expect(opened.status, await opened.clone().text()).toBe(200);
    const conversation = (await opened.json()) as { id: number };
    const inMessage = await upload(token, PNG_1x1, "image/png");
    const sent = await postJson(
      `/conversations/${conversation.id}/messages`,
      { clientId: crypto.randomUUID(), text: "look", mediaIds: [inMessage.mediaId] },
      { token },
    );
    expect(sent.status, await sent.clone().text()).toBe(200);
    await refusedWith(inMessage.mediaId, "This file was sent in a message and cannot be removed.");

    // A mass message scheduled, not yet delivered to anyone: its files are only named by the mass message.
    const inMassMessage = await upload(token, PNG_1x1, "image/png");
    await env.DB.prepare(
      "INSERT INTO mass_messages (sender_id, client_id, include_lists, text, media_ids, status, send_at, created_at) VALUES (?1, ?2, '[\"followers\"]', 'hello all', ?3, 'scheduled', ?4, ?4)",
    )
      .bind(person.user.userId, crypto.randomUUID(), JSON.stringify([inMassMessage.mediaId]), new Date().toISOString())
      .run();
    await refusedWith(inMassMessage.mediaId, "This file was sent in a message and cannot be removed.");
    // Nor does the cron take it a day later while the mass message waits for its time.
    await env.DB.prepare("UPDATE media SET created_at = '2020-01-01T00:00:00.000Z' WHERE id = ?")
      .bind(inMassMessage.mediaId)
      .run();
    await discardAbandonedUploads(env);
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM media WHERE id = ?").bind(inMassMessage.mediaId).first("n"),
    ).toBe(1);

    // A profile image is the person's own to take down: deleting it clears it from the profile.
    const avatar = await upload(token, PNG_1x1, "image/png", "avatar");
    expect((await postJson("/me/avatar", { mediaId: avatar.mediaId }, { token })).status).toBe(200);
    expect((await deleteUpload(avatar.mediaId)).status).toBe(204);
    expect(
      await env.DB.prepare("SELECT avatar_key FROM users WHERE id = ?").bind(person.user.userId).first("avatar_key"),
    ).toBeNull();
  });
});
