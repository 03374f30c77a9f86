import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { nowMs } from "@shared/clock";
import type { AccountDeletionView } from "@shared/contracts/account-deletion";
import { findUserById } from "../../worker/domain/accounts/users";
import { auditLedger, balancesOf } from "../../worker/domain/money/ledger";
import { decidePayout } from "../../worker/domain/money/withdrawals";
import { suspendUser } from "../../worker/domain/moderation/suspend-user";
import { testContext } from "./domain-context";
import { runScheduledJobsAndSettle } from "./entry";
import { stopClockAt } from "./clock";
import { earn, makeAvailable } from "./earnings-fixtures";
import { api, createUser, postJson } from "./factories";
import { authenticatorCode } from "../support/totp";
import { createAdmin, createPost, fetchMedia } from "./moderation-support";
import { createFan, fundWallet, newKey } from "./money-fixtures";
import { creatorWith, fundedFan, inDays, subscribe, subscribed, type Member } from "./offer-fixtures";
import { follow } from "./timeline-fixtures";

const BALANCED = { unbalancedTransfers: 0, openTransfers: 0, negativeAccounts: 0, driftedAccounts: 0, totalCents: 0 };
const DAY_MS = 86_400_000;

const askToDelete = (member: Member, password = member.input.password) =>
  postJson("/account/deletion", { password }, { token: member.token });

async function leaving(member: Member): Promise<AccountDeletionView> {
  const response = await askToDelete(member);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as AccountDeletionView;
}

const signIn = (member: Member) => postJson("/login", { login: member.input.email, password: member.input.password });
const profileStatus = async (username: string, token?: string) => (await api(`/users/${username}`, { token })).status;
const postStatus = async (postId: number, token: string) => (await api(`/posts/${postId}`, { token })).status;
const userRow = async (id: number) => (await findUserById(env.DB, id))!;

const putPaypal = (member: Member) =>
  api("/me/payout-method", {
    method: "PUT",
    token: member.token,
    body: JSON.stringify({
      kind: "paypal",
      paypalEmail: "leaving@example.org",
      paypalEmailConfirmation: "leaving@example.org",
      password: member.input.password,
    }),
  });

/** A creator with a weekly $5 plan, a payout method, a subscriber-only post (its file in R2) and a subscriber. */
async function creatorWithSubscriber() {
  const creator = await creatorWith([{ period: "week", priceCents: 500 }]);
  expect((await putPaypal(creator)).status).toBe(200);
  const post = await createPost(creator.user.userId, "subscribers");
  const fan = await fundedFan(2_000);
  await subscribed(
    await subscribe(creator.user.username, { period: "week", priceCents: 500, idempotencyKey: newKey() }, fan.token),
  );
  return { creator, post, fan };
}

/** Runs the cron `days` days from now, with the clock stopped there. */
async function runCronIn(days: number) {
  stopClockAt(new Date(nowMs() + days * DAY_MS));
  return runScheduledJobsAndSettle(env);
}

describe("asking to delete an account", () => {
  it("refuses a wrong or missing password and changes nothing", async () => {
    const { creator, post, fan } = await creatorWithSubscriber();
    const wrong = await askToDelete(creator, "not my password");
    expect(wrong.status).toBe(422);
    expect(((await wrong.json()) as { errors: Record<string, string[]> }).errors.password).toEqual(["Wrong password"]);
    expect((await askToDelete(creator, "")).status).toBe(422);
    expect(await userRow(creator.user.userId)).toMatchObject({ suspended_at: null, deletion_due_at: null });
    expect(await profileStatus(creator.user.username)).toBe(200);
    expect(await postStatus(post.postId, fan.token)).toBe(200);
  });

  it("asks for a code as well when two-step sign-in is on, and refuses a wrong one", async () => {
    const member = await createUser();
    const at = Math.floor(Date.now() / 30_000) * 30_000;
    stopClockAt(new Date(at));
    const setup = await postJson("/me/two-step/setup", {}, { token: member.token });
    const { secret } = (await setup.json()) as { secret: string };
    const confirm = { code: await authenticatorCode(secret, at) };
    expect((await postJson("/me/two-step/confirm", confirm, { token: member.token })).status).toBe(200);
    stopClockAt(new Date(at + 30_000));
    const code = await authenticatorCode(secret, at + 30_000);
    const ask = (body: Record<string, string>) =>
      postJson("/account/deletion", { password: member.input.password, ...body }, { token: member.token });

    const near = await Promise.all([0, 1, 2].map((step) => authenticatorCode(secret, at + step * 30_000)));
    const wrong = ["000000", "111111", "222222", "333333"].find((guess) => !near.includes(guess))!;
    for (const body of [{}, { code: wrong }] as Record<string, string>[]) {
      const refused = await ask(body);
      expect(refused.status).toBe(422);
      expect(Object.keys(((await refused.json()) as { errors: Record<string, string[]> }).errors)).toEqual(["code"]);
    }
    expect(await userRow(member.user.userId)).toMatchObject({ deletion_due_at: null });
    expect((await ask({ code })).status).toBe(200);
    expect((await userRow(member.user.userId)).deletion_due_at).not.toBeNull();
  });

  it("hides the account at once from everyone else, and ends its other sessions", async () => {
    const { creator, post, fan } = await creatorWithSubscriber();
    expect(await fetchMedia(post.key, fan.token)).toBe(200);
    const other = (await (await signIn(creator)).json()) as { token: string };

    const state = await leaving(creator);
    expect(Date.parse(state.deletesAt!) - nowMs()).toBeGreaterThan(29.9 * DAY_MS);
    expect(Date.parse(state.deletesAt!) - nowMs()).toBeLessThanOrEqual(30 * DAY_MS);

    expect(await profileStatus(creator.user.username)).toBe(404);
    expect(await profileStatus(creator.user.username, fan.token)).toBe(404);
    expect(await postStatus(post.postId, fan.token)).toBe(404);
    expect(await fetchMedia(post.key, fan.token)).toBe(404);
    expect((await api("/me", { token: other.token })).status).toBe(401);
    expect((await api("/me", { token: creator.token })).status).toBe(200);
    // Asking again answers the same date.
    expect((await leaving(creator)).deletesAt).toBe(state.deletesAt);
  });

  it("stops renewals both ways: fans of a leaving creator, and a leaving fan's own", async () => {
    const { creator, fan } = await creatorWithSubscriber();
    const other = await creatorWithSubscriber();
    const staying = await creatorWithSubscriber();
    await leaving(creator);
    await leaving(other.fan);

    await runCronIn(8);
    const renewals = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM payments WHERE kind = 'renewal' AND user_id IN (?, ?)",
    )
      .bind(fan.user.userId, other.fan.user.userId)
      .first<{ n: number }>();
    expect(renewals!.n).toBe(0);
    const statuses = await env.DB.prepare(
      "SELECT status FROM subscriptions WHERE (fan_id = ? AND creator_id = ?) OR (fan_id = ? AND creator_id = ?)",
    )
      .bind(fan.user.userId, creator.user.userId, other.fan.user.userId, other.creator.user.userId)
      .all<{ status: string }>();
    expect(statuses.results.map((row) => row.status)).toEqual(["expired", "expired"]);
    // A subscription whose two people stay renews.
    const kept = await env.DB.prepare("SELECT COUNT(*) AS n FROM payments WHERE kind = 'renewal' AND user_id = ?")
      .bind(staying.fan.user.userId)
      .first<{ n: number }>();
    expect(kept!.n).toBe(1);
  });

  it("is undone by signing in and keeping the account, and the cron then deletes nothing", async () => {
    const { creator, post, fan } = await creatorWithSubscriber();
    await leaving(creator);
    const signedIn = await signIn(creator);
    expect(signedIn.status).toBe(200);
    const { token } = (await signedIn.json()) as { token: string };
    const kept = await api("/account/deletion", { method: "DELETE", token });
    expect(kept.status).toBe(200);
    expect(((await kept.json()) as AccountDeletionView).deletesAt).toBeNull();

    expect(await profileStatus(creator.user.username)).toBe(200);
    expect(await postStatus(post.postId, fan.token)).toBe(200);
    expect(await fetchMedia(post.key, fan.token)).toBe(200);
    await runCronIn(31);
    expect(await userRow(creator.user.userId)).toMatchObject({ username: creator.user.username, deleted_at: null });
    expect(await env.MEDIA.head(post.key)).not.toBeNull();
  });

  it("is refused to an admin-suspended account at sign-in, which no longer leaves", async () => {
    const member = await createUser();
    await leaving(member);
    await suspendUser(testContext(), member.user.userId);
    expect((await signIn(member)).status).toBe(403);
    expect((await userRow(member.user.userId)).deletion_due_at).toBeNull();
  });
});

describe("the deletion, 30 days later", () => {
  it("deletes the profile, posts, files and messages' text, and keeps the books balanced and nameless", async () => {
    const { creator, post, fan } = await creatorWithSubscriber();
    await follow(fan.user.userId, creator.user.userId);
    const conversation = (await (
      await postJson("/conversations", { username: creator.user.username }, { token: fan.token })
    ).json()) as { id: number };
    const write = (from: Member, text: string) =>
      postJson(`/conversations/${conversation.id}/messages`, { clientId: newKey(), text }, { token: from.token });
    expect((await write(fan, "hello from the fan")).status).toBe(200);
    expect((await write(creator, "the creator's words")).status).toBe(200);
    const { email, username } = creator.input;
    await leaving(creator);

    const outcomes = await runCronIn(31);
    expect(outcomes.find((outcome) => outcome.job === "delete-accounts")).toMatchObject({
      ok: true,
      result: { deleted: 1, waiting: 0 },
    });

    const tombstone = await userRow(creator.user.userId);
    expect(tombstone).toMatchObject({ name: "Deleted account", bio: "", password_hash: "", avatar_key: null });
    expect(tombstone.username).not.toBe(username);
    expect(tombstone.email).not.toBe(email.toLowerCase());
    expect(await profileStatus(username)).toBe(404);
    expect(await env.DB.prepare("SELECT id FROM posts WHERE id = ?").bind(post.postId).first()).toBeNull();
    expect(await env.MEDIA.head(post.key)).toBeNull();
    const texts = await env.DB.prepare("SELECT sender_id, text FROM messages WHERE conversation_id = ? ORDER BY seq")
      .bind(conversation.id)
      .all<{ sender_id: number; text: string }>();
    expect(texts.results).toEqual([
      { sender_id: fan.user.userId, text: "hello from the fan" },
      { sender_id: creator.user.userId, text: "" },
    ]);
    expect(
      await env.DB.prepare("SELECT 1 FROM follows WHERE creator_id = ?").bind(creator.user.userId).first(),
    ).toBeNull();
    expect(
      await env.DB.prepare("SELECT 1 FROM sessions WHERE user_id = ?").bind(creator.user.userId).first(),
    ).toBeNull();

    // The ledger keeps its lines (the subscription's earning), balanced, and none names the person.
    expect(await auditLedger(env.DB)).toEqual(BALANCED);
    const named = await env.DB.prepare(
      `SELECT COUNT(*) AS n FROM ledger_transfers t JOIN ledger_entries e ON e.transfer_id = t.id
       JOIN ledger_accounts a ON a.id = e.account_id JOIN users u ON u.id = a.user_id
       WHERE t.memo LIKE '%' || ?1 || '%' OR t.memo LIKE '%' || ?2 || '%' OR u.username = ?1 OR u.email = ?2`,
    )
      .bind(username, email.toLowerCase())
      .first<{ n: number }>();
    expect(named!.n).toBe(0);
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM earnings WHERE creator_id = ?").bind(creator.user.userId).first(),
    ).toEqual({ n: 1 });

    // The address and the username are free again.
    const again = await postJson("/signup", { ...creator.input, email, username }, { ip: "10.9.9.9" });
    expect(again.status, await again.clone().text()).toBe(201);
  });

  it("pays a creator's earnings out to the payout method, below the minimum too, and forfeits the wallet", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 500 }]);
    const id = creator.user.userId;
    await makeAvailable(id, 3_000);
    await earn(id, 1_000);
    await fundWallet(id, 700);

    // Earnings and no payout method: asked to add one first, and nothing changes.
    const refused = await askToDelete(creator);
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { message: string }).message).toBe(
      "Add a payout method first: what you have earned is paid to it before your account is deleted.",
    );
    expect((await userRow(id)).deletion_due_at).toBeNull();

    expect((await putPaypal(creator)).status).toBe(200);
    const state = await leaving(creator);
    expect(state).toMatchObject({ isCreator: true, walletCents: 700, pendingCents: 800, availableCents: 3_000 });

    // The pending earning frees up during the 30 days (the release job runs first), then all of it is paid out.
    await runCronIn(31);
    const payout = await env.DB.prepare("SELECT * FROM payouts WHERE creator_id = ?")
      .bind(id)
      .first<{ id: number; amount_cents: number; status: string; closing: number; method_details: string }>();
    expect(payout).toMatchObject({ amount_cents: 3_800, status: "requested", closing: 1 });
    expect(JSON.parse(payout!.method_details)).toMatchObject({ paypalEmail: "leaving@example.org" });
    expect(await balancesOf(env.DB, id)).toEqual({ wallet: 0, pending: 0, available: 0 });
    const forfeited = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM ledger_transfers WHERE kind = 'correction' AND memo = 'account deleted: wallet forfeited'",
    ).first<{ n: number }>();
    expect(forfeited!.n).toBe(1);

    const admin = await createAdmin();
    await decidePayout(
      { db: env.DB, publish: () => undefined },
      (await findUserById(env.DB, admin.user.userId))!,
      payout!.id,
      { decision: "paid" },
    );
    expect(await auditLedger(env.DB)).toEqual(BALANCED);
  });

  it("waits while a withdrawal is open, a day at a time, and deletes once it is decided", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 500 }]);
    const id = creator.user.userId;
    await makeAvailable(id, 6_000);
    expect((await putPaypal(creator)).status).toBe(200);
    const requested = await postJson(
      "/payouts",
      { amountCents: 6_000, password: creator.input.password, idempotencyKey: newKey() },
      { token: creator.token },
    );
    expect(requested.status).toBe(200);
    const { payout } = (await requested.json()) as { payout: { id: number } };
    await leaving(creator);

    const waited = await runCronIn(31);
    expect(waited.find((outcome) => outcome.job === "delete-accounts")).toMatchObject({
      result: { deleted: 0, waiting: 1 },
    });
    expect((await userRow(id)).deletion_due_at).toBe(inDays(1));

    const admin = await createAdmin();
    await decidePayout({ db: env.DB, publish: () => undefined }, (await userRow(admin.user.userId))!, payout.id, {
      decision: "paid",
    });
    await runCronIn(1);
    expect((await userRow(id)).deleted_at).not.toBeNull();
    expect(await auditLedger(env.DB)).toEqual(BALANCED);
  });

  it("forfeits a fan's wallet through the ledger", async () => {
    const fan = await createFan();
    await fundWallet(fan.user.userId, 1_234);
    expect(await leaving(fan)).toMatchObject({ isCreator: false, walletCents: 1_234 });
    await runCronIn(31);
    expect(await balancesOf(env.DB, fan.user.userId)).toMatchObject({ wallet: 0 });
    expect((await userRow(fan.user.userId)).deleted_at).not.toBeNull();
    expect(await auditLedger(env.DB)).toEqual(BALANCED);
  });
});
