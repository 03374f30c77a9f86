import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, countRows, createUser, latestMailTo, postJson } from "./factories";
import { discardMediaByIds } from "../../worker/domain/media/discard-media";
import { createAdmin, createApplicant, createIdImage, del, submitApplication } from "./moderation-support";

const UNDER_REVIEW =
  "This file is part of your creator application under review: it cannot be removed until the application is decided.";
const NO_DOCUMENT =
  "This application's ID document or selfie is missing: it cannot be approved. Reject it so that the member can apply again.";

const me = async (token: string) => (await (await api("/me", { token })).json()) as { isCreator: boolean };
const application = async (token: string) =>
  (
    (await (await api("/creatorRequest", { token })).json()) as {
      application: { status: string; rejectionReason: string } | null;
    }
  ).application;

describe("creator requests", () => {
  it("pending, one at a time; approval makes a creator, notifies, mails and deletes the ID images", async () => {
    const member = await createApplicant();
    const admin = await createAdmin();
    expect(await application(member.token)).toBeNull();

    const first = await submitApplication(member.token, member.user.userId);
    expect(first.response.status).toBe(201);
    expect(await application(member.token)).toMatchObject({ status: "pending" });

    const again = await submitApplication(member.token, member.user.userId);
    expect(again.response.status).toBe(422);
    expect(((await again.response.json()) as { message: string }).message).toBe(
      "Your application is already pending validation.",
    );
    expect(await countRows("creator_requests")).toBe(1);

    const queue = (await (await api("/admin/creatorRequests", { token: admin.token })).json()) as {
      requests: { id: number; documentUrl: string; selfieUrl: string; user: { name: string; dateOfBirth: string } }[];
    };
    expect(queue.requests).toHaveLength(1);
    const [request] = queue.requests;
    // The name and birth date given at sign-up, for the admin to compare with the document.
    expect(request!.user).toMatchObject({ name: member.input.name, dateOfBirth: member.input.dateOfBirth });
    expect(request!.documentUrl).toBe(`/media/${first.document.key}`);
    expect(request!.selfieUrl).toBe(`/media/${first.selfie.key}`);

    const approved = await postJson(`/admin/creatorRequests/${request!.id}/approve`, {}, { token: admin.token });
    expect(approved.status).toBe(200);
    expect(await me(member.token)).toMatchObject({ isCreator: true });
    const user = await env.DB.prepare("SELECT role, monetization_enabled FROM users WHERE id = ?")
      .bind(member.user.userId)
      .first();
    expect(user).toEqual({ role: "creator", monetization_enabled: 1 });
    const plans = await env.DB.prepare("SELECT period, price_cents FROM subscription_plans WHERE creator_id = ?")
      .bind(member.user.userId)
      .all();
    expect(plans.results).toEqual([{ period: "month", price_cents: 0 }]);

    const notification = await env.DB.prepare("SELECT kind, params FROM notifications WHERE user_id = ?")
      .bind(member.user.userId)
      .first<{ kind: string; params: string }>();
    expect(notification?.kind).toBe("creator_request");
    expect(JSON.parse(notification!.params)).toEqual({ status: "approved", reason: "" });
    expect((await latestMailTo(member.input.email))?.subject).toBe("You are now a creator");

    for (const image of [first.document, first.selfie]) expect(await env.MEDIA.head(image.key)).toBeNull();
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM media WHERE id IN (?, ?)")
        .bind(first.document.id, first.selfie.id)
        .first("n"),
    ).toBe(0);
    expect(
      await env.DB.prepare("SELECT document_media_id, selfie_media_id, status FROM creator_requests").first(),
    ).toEqual({ document_media_id: null, selfie_media_id: null, status: "approved" });

    // Decided once: a second decision finds nothing pending, and a creator cannot apply again.
    expect(
      (await postJson(`/admin/creatorRequests/${request!.id}/reject`, { reason: "late" }, { token: admin.token }))
        .status,
    ).toBe(404);
    expect((await submitApplication(member.token, member.user.userId)).response.status).toBe(403);
  });

  it("rejection needs a reason, is notified with it (mailed in the member's language), and the member can apply again", async () => {
    const member = await createApplicant();
    const admin = await createAdmin();
    // The member applies in German; the admin decides in English.
    const { document } = await submitApplication(member.token, member.user.userId, "de-DE");
    const id = (await env.DB.prepare("SELECT id FROM creator_requests WHERE user_id = ?")
      .bind(member.user.userId)
      .first<number>("id"))!;

    for (const body of [{}, { reason: "   " }, { reason: "x".repeat(501) }]) {
      expect((await postJson(`/admin/creatorRequests/${id}/reject`, body, { token: admin.token })).status).toBe(422);
    }
    expect(await application(member.token)).toMatchObject({ status: "pending" });

    const rejected = await postJson(
      `/admin/creatorRequests/${id}/reject`,
      { reason: "The document is blurry." },
      { token: admin.token },
    );
    expect(rejected.status).toBe(200);
    expect(await application(member.token)).toEqual(
      expect.objectContaining({ status: "rejected", rejectionReason: "The document is blurry." }),
    );
    expect(await me(member.token)).toMatchObject({ isCreator: false });
    const params = await env.DB.prepare(
      "SELECT params FROM notifications WHERE user_id = ? AND kind = 'creator_request'",
    )
      .bind(member.user.userId)
      .first<string>("params");
    expect(JSON.parse(params!)).toEqual({ status: "rejected", reason: "The document is blurry." });
    const mail = await latestMailTo(member.input.email);
    expect(mail?.subject).toBe("Dein Creator-Antrag wurde nicht genehmigt");
    expect(mail?.text_body).toContain("The document is blurry.");
    expect(await env.MEDIA.head(document.key)).toBeNull();

    expect((await submitApplication(member.token, member.user.userId)).response.status).toBe(201);
    expect(await application(member.token)).toMatchObject({ status: "pending" });
  });

  it("the ID images under review cannot be deleted; a request without them cannot be approved, only rejected", async () => {
    const member = await createApplicant();
    const admin = await createAdmin();
    const { document, selfie } = await submitApplication(member.token, member.user.userId);
    const id = (await env.DB.prepare("SELECT id FROM creator_requests WHERE user_id = ?")
      .bind(member.user.userId)
      .first<number>("id"))!;

    for (const image of [document, selfie]) {
      const refused = await del(`/uploads/${image.id}`, member.token);
      expect(refused.status).toBe(422);
      expect(await refused.json()).toEqual({ message: UNDER_REVIEW, errors: { file: [UNDER_REVIEW] } });
      expect(await env.MEDIA.head(image.key)).not.toBeNull();
    }
    expect(
      await env.DB.prepare("SELECT document_media_id, selfie_media_id FROM creator_requests WHERE id = ?")
        .bind(id)
        .first(),
    ).toEqual({
      document_media_id: document.id,
      selfie_media_id: selfie.id,
    });

    // A request whose document went before the lock (deleted as DELETE /uploads/{id} did): approving it is refused.
    await discardMediaByIds(env, [document.id]);
    expect(
      await env.DB.prepare("SELECT document_media_id FROM creator_requests WHERE id = ?")
        .bind(id)
        .first("document_media_id"),
    ).toBeNull();
    const approved = await postJson(`/admin/creatorRequests/${id}/approve`, {}, { token: admin.token });
    expect(approved.status).toBe(409);
    expect(await approved.json()).toEqual({ message: NO_DOCUMENT, errors: {} });
    expect(await me(member.token)).toMatchObject({ isCreator: false });
    expect(await application(member.token)).toMatchObject({ status: "pending" });
    // The selfie alone is not enough either, nor a document still uploading.
    const other = await createApplicant();
    const half = await submitApplication(other.token, other.user.userId);
    const otherId = (await env.DB.prepare("SELECT id FROM creator_requests WHERE user_id = ?")
      .bind(other.user.userId)
      .first<number>("id"))!;
    await env.DB.prepare("UPDATE media SET status = 'uploading' WHERE id = ?").bind(half.selfie.id).run();
    expect((await postJson(`/admin/creatorRequests/${otherId}/approve`, {}, { token: admin.token })).status).toBe(409);

    // Rejecting it is how the admin answers such a request; the member may then apply again.
    expect(
      (
        await postJson(
          `/admin/creatorRequests/${id}/reject`,
          { reason: "The ID document is missing." },
          { token: admin.token },
        )
      ).status,
    ).toBe(200);
    expect(await application(member.token)).toMatchObject({ status: "rejected" });
  });

  it("refuses an unverified email, a missing photo or cover, and ID images that are not the member's own, ready and of the right purpose", async () => {
    const unverified = await createUser();
    const response = await submitApplication(unverified.token, unverified.user.userId);
    expect(response.response.status).toBe(403);
    expect(((await response.response.json()) as { message: string }).message).toBe("Your email didn't verified yet.");

    const noCover = await createApplicant();
    await env.DB.prepare("UPDATE users SET cover_key = NULL WHERE id = ?").bind(noCover.user.userId).run();
    const coverless = await submitApplication(noCover.token, noCover.user.userId);
    expect(coverless.response.status).toBe(422);
    expect(((await coverless.response.json()) as { errors: Record<string, string[]> }).errors).toEqual({
      cover: ["Add a cover image first."],
    });

    const member = await createApplicant();
    const other = await createApplicant();
    const own = await createIdImage(member.user.userId, "id_selfie");
    const cases = [
      (await createIdImage(other.user.userId, "id_document")).id, // someone else's
      (await createIdImage(member.user.userId, "id_selfie")).id, // wrong purpose
      (await createIdImage(member.user.userId, "id_document", "uploading")).id, // not finished
      999999,
    ];
    for (const documentMediaId of cases) {
      const refused = await postJson(
        "/creatorRequest",
        { documentMediaId, selfieMediaId: own.id },
        { token: member.token },
      );
      expect(refused.status).toBe(422);
      expect(((await refused.json()) as { errors: Record<string, string[]> }).errors).toEqual({
        documentMediaId: ["Upload a photo of your ID document."],
      });
    }
    for (const body of [
      "{",
      { documentMediaId: "1", selfieMediaId: own.id },
      { documentMediaId: -1, selfieMediaId: own.id },
      {},
    ]) {
      expect((await postJson("/creatorRequest", body, { token: member.token })).status).toBe(422);
    }
    expect((await postJson("/creatorRequest", { documentMediaId: 1, selfieMediaId: 2 })).status).toBe(401);
    expect(await countRows("creator_requests")).toBe(0);
  });
});
