import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { countRows, createUser, postJson } from "./factories";
import { createPost } from "./moderation-support";

type ErrorBody = { message: string; errors: Record<string, string[]> };

describe("reports", () => {
  it("records a report of a post or a user once while it is open", async () => {
    const author = await createUser();
    const reporter = await createUser();
    const { postId } = await createPost(author.user.userId);

    const first = await postJson(
      "/reports",
      { targetKind: "post", targetId: postId, reason: "spam" },
      { token: reporter.token },
    );
    expect(first.status).toBe(201);
    const repeat = await postJson(
      "/reports",
      { targetKind: "post", targetId: postId, reason: "drugs" },
      { token: reporter.token },
    );
    expect(repeat.status).toBe(200);
    expect(((await repeat.json()) as { message: string }).message).toBe(
      "You have already reported this. Our team will review it.",
    );
    const other = await postJson(
      "/reports",
      {
        targetKind: "user",
        username: author.user.username.toUpperCase(),
        reason: "other",
        description: "  Fake account  ",
      },
      { token: reporter.token },
    );
    expect(other.status).toBe(201);

    const rows = await env.DB.prepare(
      "SELECT reporter_id, target_kind, target_id, reason, description, status FROM reports ORDER BY id",
    ).all();
    expect(rows.results).toEqual([
      {
        reporter_id: reporter.user.userId,
        target_kind: "post",
        target_id: postId,
        reason: "spam",
        description: "",
        status: "open",
      },
      {
        reporter_id: reporter.user.userId,
        target_kind: "user",
        target_id: author.user.userId,
        reason: "other",
        description: "Fake account",
        status: "open",
      },
    ]);
  });

  it("refuses bad input, yourself, unknown or hidden targets and visitors, writing nothing", async () => {
    const author = await createUser();
    const reporter = await createUser();
    const { postId } = await createPost(author.user.userId);
    const { postId: lockedPostId } = await createPost(author.user.userId, "subscribers");
    await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)")
      .bind(author.user.userId, reporter.user.userId, new Date().toISOString())
      .run();

    const otherWithout = await postJson(
      "/reports",
      { targetKind: "post", targetId: postId, reason: "other", description: "   " },
      { token: reporter.token },
    );
    expect(otherWithout.status).toBe(422);
    expect(((await otherWithout.json()) as ErrorBody).errors).toEqual({
      description: ["Please describe the problem."],
    });

    const badReason = await postJson(
      "/reports",
      { targetKind: "user", username: author.user.username, reason: "boring" },
      { token: reporter.token },
    );
    expect(badReason.status).toBe(422);
    expect(((await badReason.json()) as ErrorBody).errors).toEqual({ reason: ["Please choose a reason."] });

    for (const body of [
      "not json",
      {},
      { targetKind: "comment", targetId: 1, reason: "spam" },
      { targetKind: "post", targetId: "1", reason: "spam" },
      { targetKind: "post", reason: "spam" },
      { targetKind: "user", username: "", reason: "spam" },
      { targetKind: "user", username: author.user.username, reason: "other", description: "x".repeat(1001) },
    ]) {
      expect((await postJson("/reports", body, { token: reporter.token })).status, JSON.stringify(body)).toBe(422);
    }
    const self = await postJson(
      "/reports",
      { targetKind: "user", username: reporter.user.username, reason: "spam" },
      { token: reporter.token },
    );
    expect(self.status).toBe(422);
    expect(((await self.json()) as ErrorBody).message).toBe("You cannot report yourself.");
    expect(
      (await postJson("/reports", { targetKind: "post", targetId: postId, reason: "spam" }, { token: author.token }))
        .status,
    ).toBe(422);
    expect(
      (
        await postJson(
          "/reports",
          { targetKind: "user", username: "nobody_here", reason: "spam" },
          { token: reporter.token },
        )
      ).status,
    ).toBe(404);
    expect(
      (await postJson("/reports", { targetKind: "post", targetId: 99999, reason: "spam" }, { token: reporter.token }))
        .status,
    ).toBe(404);
    // The author blocked the reporter: the post does not exist for them.
    expect(
      (
        await postJson(
          "/reports",
          { targetKind: "post", targetId: lockedPostId, reason: "spam" },
          { token: reporter.token },
        )
      ).status,
    ).toBe(404);
    expect((await postJson("/reports", { targetKind: "post", targetId: postId, reason: "spam" })).status).toBe(401);
    expect(await countRows("reports")).toBe(0);
  });
});
