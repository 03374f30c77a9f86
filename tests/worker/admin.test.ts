import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, countRows, createUser, latestMailTo, linkIn, postJson } from "./factories";
import { createAdmin, createApplicant, createPost, fetchMedia, submitApplication } from "./moderation-support";

describe("the admin area", () => {
  it("is a 404 for visitors, members and creators on every endpoint, and changes nothing", async () => {
    const applicant = await createApplicant();
    await submitApplication(applicant.token, applicant.user.userId);
    const requestId = (await env.DB.prepare("SELECT id FROM creator_requests").first<number>("id"))!;
    const author = await createUser();
    const { postId } = await createPost(author.user.userId);
    const reporter = await createUser();
    await postJson("/reports", { targetKind: "post", targetId: postId, reason: "spam" }, { token: reporter.token });
    const reportId = (await env.DB.prepare("SELECT id FROM reports").first<number>("id"))!;

    const member = await createUser();
    const creator = await createUser();
    await env.DB.prepare("UPDATE users SET role = 'creator', monetization_enabled = 1 WHERE id = ?")
      .bind(creator.user.userId)
      .run();
    const calls: [string, string, unknown?][] = [
      ["GET", "/admin/creatorRequests"],
      ["POST", `/admin/creatorRequests/${requestId}/approve`, {}],
      ["POST", `/admin/creatorRequests/${requestId}/reject`, { reason: "no" }],
      ["GET", "/admin/reports"],
      ["POST", `/admin/reports/${reportId}/dismiss`, {}],
      ["POST", `/admin/reports/${reportId}/removeContent`, {}],
      ["POST", `/admin/reports/${reportId}/suspendUser`, {}],
    ];
    for (const token of [undefined, member.token, creator.token]) {
      for (const [method, path, body] of calls) {
        const response = await api(path, {
          method,
          token,
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        expect(response.status, `${method} ${path}`).toBe(404);
      }
    }
    expect(await env.DB.prepare("SELECT status FROM creator_requests").first("status")).toBe("pending");
    expect(await env.DB.prepare("SELECT status FROM reports").first("status")).toBe("open");
    expect(await countRows("posts")).toBe(1);
    expect(
      await env.DB.prepare("SELECT suspended_at FROM users WHERE id = ?")
        .bind(author.user.userId)
        .first("suspended_at"),
    ).toBeNull();
  });

  it("answers bad ids and actions with 422 and unknown ones with 404", async () => {
    const admin = await createAdmin();
    expect((await postJson("/admin/creatorRequests/abc/approve", {}, { token: admin.token })).status).toBe(422);
    expect((await postJson("/admin/creatorRequests/0/approve", {}, { token: admin.token })).status).toBe(422);
    expect((await postJson("/admin/creatorRequests/12345/approve", {}, { token: admin.token })).status).toBe(404);
    expect((await postJson("/admin/reports/1/explode", {}, { token: admin.token })).status).toBe(422);
    expect((await postJson("/admin/reports/12345/dismiss", {}, { token: admin.token })).status).toBe(404);
  });

  it("dismisses, removes a reported post with its media, and suspends: sign-in refused, sessions ended, content hidden", async () => {
    const admin = await createAdmin();
    const author = await createUser();
    const reporter = await createUser();
    const fan = await createUser();
    const spam = await createPost(author.user.userId);
    const kept = await createPost(author.user.userId);
    const report = async (body: unknown) => {
      expect((await postJson("/reports", body, { token: reporter.token })).status).toBe(201);
      return (await env.DB.prepare("SELECT id FROM reports ORDER BY id DESC").first<number>("id"))!;
    };

    const dismissed = await report({ targetKind: "post", targetId: kept.postId, reason: "didnt_like" });
    expect((await postJson(`/admin/reports/${dismissed}/dismiss`, {}, { token: admin.token })).status).toBe(200);
    expect(
      await env.DB.prepare("SELECT status, resolved_by FROM reports WHERE id = ?").bind(dismissed).first(),
    ).toEqual({ status: "dismissed", resolved_by: admin.user.userId });
    expect((await api(`/admin/reports`, { token: admin.token }).then((r) => r.json())) as unknown).toEqual({
      reports: [],
    });

    const removed = await report({ targetKind: "post", targetId: spam.postId, reason: "spam" });
    const queue = (await (await api("/admin/reports", { token: admin.token })).json()) as {
      reports: { id: number; target: { text: string; user: { username: string } } }[];
    };
    expect(queue.reports).toEqual([
      expect.objectContaining({
        id: removed,
        target: expect.objectContaining({
          text: "a everyone post",
          user: expect.objectContaining({ username: author.user.username }),
        }),
      }),
    ]);
    expect((await postJson(`/admin/reports/${removed}/removeContent`, {}, { token: admin.token })).status).toBe(200);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM posts WHERE id = ?").bind(spam.postId).first("n")).toBe(0);
    expect(await env.MEDIA.head(spam.key)).toBeNull();
    expect(await env.DB.prepare("SELECT status FROM reports WHERE id = ?").bind(removed).first("status")).toBe(
      "content_removed",
    );

    expect(await fetchMedia(kept.key, fan.token)).toBe(200);
    const suspended = await report({ targetKind: "user", username: author.user.username, reason: "impersonation" });
    expect((await postJson(`/admin/reports/${suspended}/suspendUser`, {}, { token: admin.token })).status).toBe(200);
    expect(await env.DB.prepare("SELECT status FROM reports WHERE id = ?").bind(suspended).first("status")).toBe(
      "user_suspended",
    );
    expect((await api("/me", { token: author.token })).status).toBe(401);
    const signIn = await postJson("/login", { login: author.input.email, password: author.input.password });
    expect(signIn.status).toBe(403);
    expect(((await signIn.json()) as { message: string }).message).toBe("This account has been suspended.");
    expect(await fetchMedia(kept.key, fan.token)).toBe(404);
    expect(await fetchMedia(kept.key)).toBe(404);
    expect((await postJson("/login/magic-link", { email: author.input.email })).status).toBe(200);
    const magicToken = new URL(linkIn((await latestMailTo(author.input.email))!.text_body)!).searchParams.get("token");
    expect((await postJson("/login/token", { token: magicToken })).status).toBe(403);
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?").bind(author.user.userId).first("n"),
    ).toBe(0);

    // An admin cannot be suspended through a report against them.
    const onAdmin = await report({ targetKind: "user", username: admin.user.username, reason: "spam" });
    expect((await postJson(`/admin/reports/${onAdmin}/suspendUser`, {}, { token: admin.token })).status).toBe(422);
    expect((await api("/me", { token: admin.token })).status).toBe(200);
  });
});
