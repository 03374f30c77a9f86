import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { findSession, forgetSessionsOf } from "../../worker/domain/auth/sessions";
import { incomingBookmark, requestDatabase } from "../../worker/db/bookmarks";
import { auditLedger, balancesOf } from "../../worker/domain/money/ledger";
import { api, createUser, postJson } from "./factories";
import { counted } from "./counted-db";
import { createFan, createVerifiedCreator, fundWallet, newKey } from "./money-fixtures";
import { findUserById } from "../../worker/domain/accounts/users";
import { getProfile } from "../../worker/domain/profiles/get-profile";
import { getProfilePage } from "../../worker/domain/profiles/profile-page";
import { listComments } from "../../worker/domain/interactions/list-comments";
import { createPost, makeCreator, subscribe as subscribeFree } from "./timeline-fixtures";
import { purchasePost } from "../../worker/domain/money/purchase-post";
import { sendTip } from "../../worker/domain/money/send-tip";
import { subscribe } from "../../worker/domain/subscriptions/subscribe";
import { config } from "../../worker/env";
import { readWallet, readWithdrawal } from "../../worker/domain/money/screens";
import { requestWithdrawal } from "../../worker/domain/money/withdrawals";
import { makeAvailable } from "./earnings-fixtures";
import { testContext } from "./domain-context";

/**
 * The round trips to D1 of the hot paths, each read that belongs together sent as one explicit batch, and each
 * checked for what it must not change: the session copy (revocation), the access checks sent with their reads.
 */

describe("the session copy", () => {
  it("serves reads without D1 for its seconds, but never a revoked session in the isolate that revoked it", async () => {
    const fan = await createFan();
    const { database, calls } = counted(env.DB);
    const first = await findSession(database, fan.token, 5);
    expect(first?.user.id).toBe(fan.user.userId);
    expect(calls.single).toBe(1);
    // Gone from D1 behind the cache's back: a read within its seconds still gets the copy, a write (0) does not.
    await env.DB.prepare("DELETE FROM sessions WHERE user_id = ?").bind(fan.user.userId).run();
    expect((await findSession(database, fan.token, 5))?.user.id).toBe(fan.user.userId);
    expect(calls.single).toBe(1);
    expect(await findSession(database, fan.token, 0)).toBeNull();
    // Not found once: the copy is dropped too.
    expect(await findSession(database, fan.token, 5)).toBeNull();
  });

  it("forgetSessionsOf drops a user's copies at once; a copy past its seconds is read again", async () => {
    const fan = await createFan();
    await findSession(env.DB, fan.token, 5);
    await env.DB.prepare("UPDATE users SET name = 'Renamed' WHERE id = ?").bind(fan.user.userId).run();
    expect((await findSession(env.DB, fan.token, 5))?.user.name).not.toBe("Renamed");
    forgetSessionsOf(fan.user.userId);
    expect((await findSession(env.DB, fan.token, 5))?.user.name).toBe("Renamed");
  });

  it("over HTTP: reads share the copy, a write drops it, sign-out refuses the token at once", async () => {
    const member = await createUser();
    const verified = async () =>
      ((await (await api("/me", { token: member.token })).json()) as { isEmailVerified: boolean }).isEmailVerified;
    expect(await verified()).toBe(false);
    // Verified behind the app's back: reads within the copy's seconds still see the copy...
    await env.DB.prepare("UPDATE users SET email_verified_at = ? WHERE id = ?")
      .bind(new Date().toISOString(), member.user.userId)
      .run();
    expect(await verified()).toBe(false);
    // ...a write reads the user from D1 and drops the copy, so the next read is fresh.
    expect((await postJson("/home/seen", {}, { token: member.token })).status).toBeLessThan(300);
    expect(await verified()).toBe(true);
    expect((await postJson("/logout", {}, { token: member.token })).status).toBeLessThan(300);
    expect((await api("/me", { token: member.token })).status).toBe(401);
  });
});

describe("a profile's reads on a guess", () => {
  it("one round trip once the isolate knows the username; the same answer; a username taken by someone else is read again", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    await subscribeFree(fan.user.userId, creator.user.userId);
    await createPost(creator.user.userId, { text: "first of the creator" });
    const fanRow = (await findUserById(env.DB, fan.user.userId))!;
    const username = creator.user.username;
    const pageOf = async () => {
      const { database, calls } = counted(env.DB);
      const page = await getProfilePage(database, username, fanRow);
      return { page, calls };
    };

    // First look: the user, then its reads with the page's block mark and stories: two trips.
    const first = await pageOf();
    expect(first.calls).toMatchObject({ single: 1, batches: 1 });
    // Known now: everything goes with the user's own read, and the answer is the same.
    const second = await pageOf();
    expect(second.calls).toMatchObject({ single: 0, batches: 1, batchSizes: [10] });
    expect(second.page).toEqual(first.page);
    expect(second.page!.profile.posts.map((post) => post.text)).toEqual(["first of the creator"]);
    expect(second.page!.storyRing).toEqual({ count: 0, unseen: 0 });
    expect(second.page!.profile.subscription).not.toBeNull();

    // The creator renames and someone else takes the name: the guessed reads are not used, the right ones follow.
    await env.DB.prepare("UPDATE users SET username = ? WHERE id = ?")
      .bind(`${username}_old`, creator.user.userId)
      .run();
    const newcomer = await createUser();
    await env.DB.prepare("UPDATE users SET username = ? WHERE id = ?").bind(username, newcomer.user.userId).run();
    await createPost(newcomer.user.userId, { text: "the newcomer's own" });
    const third = await pageOf();
    expect(third.page!.profile).toMatchObject({
      userId: newcomer.user.userId,
      isCreator: false,
      subscription: null,
      plans: [],
    });
    expect(third.page!.profile.posts.map((post) => post.text)).toEqual(["the newcomer's own"]);
    expect(third.page!.storyRing).toBeNull();
    expect(third.calls).toMatchObject({ single: 0, batches: 2 });
    // The API's profile, a visitor's: one trip on the corrected guess.
    const { database, calls } = counted(env.DB);
    expect((await getProfile(database, username, null))!.userId).toBe(newcomer.user.userId);
    expect(calls).toMatchObject({ single: 0, batches: 1, batchSizes: [7] });
  });
});

describe("a post's comments", () => {
  it("come in the same round trip as the access check, and only for a post the viewer may open", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    const open = await createPost(creator.user.userId);
    const locked = await createPost(creator.user.userId, { audience: "subscribers" });
    await env.DB.prepare("INSERT INTO comments (post_id, user_id, text, created_at) VALUES (?, ?, 'first!', ?)")
      .bind(open.id, fan.user.userId, new Date().toISOString())
      .run();
    await env.DB.prepare("INSERT INTO comments (post_id, user_id, text, created_at) VALUES (?, ?, 'secret talk', ?)")
      .bind(locked.id, creator.user.userId, new Date().toISOString())
      .run();
    const { database, calls } = counted(env.DB);
    const db = database;
    expect((await listComments(db, open.id, fan.user.userId, null)).comments.map((comment) => comment.text)).toEqual([
      "first!",
    ]);
    expect(calls).toMatchObject({ single: 0, batches: 1, batchSizes: [2] });
    await expect(listComments(db, locked.id, fan.user.userId, null)).rejects.toMatchObject({ code: "forbidden" });
    await expect(listComments(db, locked.id + 1000, fan.user.userId, null)).rejects.toMatchObject({
      code: "not_found",
    });
  });
});

describe("read replication", () => {
  it("a read starts at the bookmark the client carries; writes start at the primary and hand the bookmark back", async () => {
    expect(
      incomingBookmark(
        new Request("https://app.test/", { headers: { Cookie: "a=1; __Host-d1b=0000000a-00000001-abc" } }),
      ),
    ).toBe("0000000a-00000001-abc");
    expect(
      incomingBookmark(new Request("https://app.test/", { headers: { "X-D1-Bookmark": "bad bookmark!" } })),
    ).toBeNull();
    // The tests' D1 has no Sessions API (a local run's Miniflare has): a stand-in records how sessions are opened.
    const opened: unknown[] = [];
    const binding = {
      prepare: (query: string) => env.DB.prepare(query),
      batch: (statements: D1PreparedStatement[]) => env.DB.batch(statements),
      withSession: (constraint: string) => {
        opened.push(constraint);
        return {
          prepare: (query: string) => env.DB.prepare(query),
          batch: (statements: D1PreparedStatement[]) => env.DB.batch(statements),
          getBookmark: () => "0000000a-00000005",
        };
      },
    } as unknown as D1Database;
    const read = requestDatabase(binding, new Request("https://app.test/home"));
    requestDatabase(
      binding,
      new Request("https://app.test/home", { headers: { "X-D1-Bookmark": "0000000a-00000003" } }),
    );
    const write = requestDatabase(
      binding,
      new Request("https://app.test/api/x", { method: "POST", headers: { "X-D1-Bookmark": "0000000a-00000003" } }),
    );
    expect(opened).toEqual(["first-unconstrained", "0000000a-00000003", "first-primary"]);
    expect((await read.db.prepare("SELECT 1 AS n").first<{ n: number }>())?.n).toBe(1);
    expect(write.bookmark()).toBe("0000000a-00000005");
    // Without the Sessions API: the binding itself, and no bookmark.
    expect(requestDatabase(env.DB, new Request("https://app.test/api/x", { method: "POST" }))).toMatchObject({
      db: env.DB,
    });
  });
});

describe("a post bought and a paid subscription", () => {
  it("read their replay and access (the plan, the live subscription) together, and nothing after the payment", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await fundWallet(fan.user.userId, 5000);
    const plans = await api("/me/plans", {
      method: "PUT",
      body: JSON.stringify({ plans: [{ period: "month", priceCents: 999 }] }),
      token: creator.token,
    });
    expect(plans.status).toBe(200);
    const post = await createPost(creator.user.userId, { priceCents: 450 });
    const fanRow = (await findUserById(env.DB, fan.user.userId))!;
    const { database, calls } = counted(env.DB);
    const ctx = { db: database, publish: () => {}, defer: () => {}, config: config(env) };

    const input = { priceCents: 450, idempotencyKey: newKey() };
    const bought = await purchasePost(ctx, fanRow, post.id, input);
    expect(bought).toMatchObject({ replayed: false, payment: { kind: "post", amountCents: 450 } });
    // The replay lookup with the access check, then the payment's batch.
    expect(calls).toMatchObject({ single: 0, batches: 2 });
    expect(await purchasePost(ctx, fanRow, post.id, input)).toEqual({ ...bought, replayed: true });

    calls.single = 0;
    calls.batches = 0;
    const subscription = await subscribe(ctx, fanRow, creator.user.username, {
      period: "month",
      priceCents: 999,
      idempotencyKey: newKey(),
    });
    // The creator's username (read once: the isolate may know it), the live subscription with the plan, the payment.
    expect(calls.single).toBeLessThanOrEqual(1);
    expect(calls.batches).toBe(2);
    expect(subscription).toMatchObject({ status: "active", priceCents: 999, period: "month" });
    const stored = await env.DB.prepare("SELECT id FROM subscriptions WHERE fan_id = ? AND status = 'active'")
      .bind(fan.user.userId)
      .first<{ id: number }>();
    expect(subscription.id).toBe(stored!.id);
    expect(await auditLedger(env.DB)).toMatchObject({
      unbalancedTransfers: 0,
      negativeAccounts: 0,
      driftedAccounts: 0,
    });
  });
});

describe("a free subscription", () => {
  it("writes the subscription, the creator's notification and the follow in one batch, and notifies once", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    const plans = await api("/me/plans", {
      method: "PUT",
      body: JSON.stringify({ plans: [{ period: "month", priceCents: 0 }] }),
      token: creator.token,
    });
    expect(plans.status).toBe(200);
    const fanRow = (await findUserById(env.DB, fan.user.userId))!;
    const { database, calls } = counted(env.DB);
    const events: { type: string; userId?: number; kind?: string; pushJobs?: unknown[] }[] = [];
    const ctx = {
      db: database,
      publish: (event: (typeof events)[number]) => void events.push(event),
      defer: () => {},
      config: config(env),
    };

    const subscription = await subscribe(ctx, fanRow, creator.user.username, { period: "month" });
    expect(subscription).toMatchObject({ status: "active", priceCents: 0, period: "month" });
    // The creator's username (read once: the isolate may know it), the live subscription with the plan, then one
    // batch; the notification was a trip of its own after it before.
    expect(calls.single).toBeLessThanOrEqual(1);
    expect(calls.batches).toBe(2);
    expect(events).toEqual([
      expect.objectContaining({ type: "NotificationCreated", userId: creator.user.userId, kind: "subscription" }),
    ]);
    const notifications = () =>
      env.DB.prepare(
        "SELECT COUNT(*) AS n FROM notifications WHERE user_id = ? AND kind = 'subscription' AND actor_id = ?",
      )
        .bind(creator.user.userId, fan.user.userId)
        .first<{ n: number }>();
    expect(await notifications()).toEqual({ n: 1 });
    const follows = await env.DB.prepare("SELECT COUNT(*) AS n FROM follows WHERE follower_id = ? AND creator_id = ?")
      .bind(fan.user.userId, creator.user.userId)
      .first<{ n: number }>();
    expect(follows).toEqual({ n: 1 });

    // Subscribing again answers the same subscription and notifies no one.
    expect((await subscribe(ctx, fanRow, creator.user.username, { period: "month" })).id).toBe(subscription.id);
    expect(events).toHaveLength(1);
    expect(await notifications()).toEqual({ n: 1 });
  });

  it("when a concurrent request wrote the live row first, records no second notification", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await api("/me/plans", {
      method: "PUT",
      body: JSON.stringify({ plans: [{ period: "month", priceCents: 0 }] }),
      token: creator.token,
    });
    const fanRow = (await findUserById(env.DB, fan.user.userId))!;
    const events: unknown[] = [];
    const ctx = {
      db: env.DB,
      publish: (event: unknown) => void events.push(event),
      defer: () => {},
      config: config(env),
    };
    const answers = await Promise.all(
      [1, 2, 3].map(() => subscribe(ctx, fanRow, creator.user.username, { period: "month" })),
    );
    expect(new Set(answers.map((answer) => answer.id)).size).toBe(1);
    const { n } = (await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM notifications WHERE user_id = ? AND kind = 'subscription'",
    )
      .bind(creator.user.userId)
      .first<{ n: number }>())!;
    expect(n).toBe(1);
    expect(events).toHaveLength(1);
  });
});

describe("payments side by side", () => {
  it("each is one batch of its own; a refused one fails alone and the books stay exact", async () => {
    const creator = await createVerifiedCreator();
    const rich = await createFan();
    const poor = await createFan();
    await fundWallet(rich.user.userId, 100_000);
    await fundWallet(poor.user.userId, 300);
    const tip = (fan: { token: string }, amountCents: number) =>
      postJson(`/users/${creator.user.username}/tips`, { amountCents, idempotencyKey: newKey() }, { token: fan.token });
    // Twelve at once: ten the rich fan can pay, two the poor fan cannot both pay ($3 for two $2 tips).
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, () => tip(rich, 500)),
      tip(poor, 200),
      tip(poor, 200),
    ]);
    const statuses = answers.map((r) => r.status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses.slice(10).sort()).toEqual([200, 402]);
    expect((await balancesOf(env.DB, rich.user.userId)).wallet).toBe(100_000 - 10 * 500);
    expect((await balancesOf(env.DB, poor.user.userId)).wallet).toBe(100);
    expect(await auditLedger(env.DB)).toEqual({
      unbalancedTransfers: 0,
      openTransfers: 0,
      negativeAccounts: 0,
      driftedAccounts: 0,
      totalCents: 0,
    });
  });

  it("a tip reads its replay and its access in one batch, then pays in one; a tip the wallet cannot cover changes nothing", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await fundWallet(fan.user.userId, 100);
    const fanRow = (await findUserById(env.DB, fan.user.userId))!;
    const { database, calls } = counted(env.DB);
    const ctx = { db: database, publish: () => {}, defer: () => {}, config: config(env) };
    const tip = (amountCents: number) =>
      sendTip(ctx, fanRow, { username: creator.user.username }, { amountCents, idempotencyKey: newKey() });
    await tip(100);
    expect(calls).toMatchObject({ single: 0, batches: 2, batchSizes: [2, expect.any(Number)] });
    await expect(tip(200)).rejects.toMatchObject({ code: "payment_required" });
    expect((await balancesOf(env.DB, fan.user.userId)).wallet).toBe(0);
    expect(await auditLedger(env.DB)).toEqual({
      unbalancedTransfers: 0,
      openTransfers: 0,
      negativeAccounts: 0,
      driftedAccounts: 0,
      totalCents: 0,
    });
  });

  it("a post its wallet cannot cover is refused by the commit, and nothing is bought", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await fundWallet(fan.user.userId, 400);
    const post = await createPost(creator.user.userId, { priceCents: 450 });
    const fanRow = (await findUserById(env.DB, fan.user.userId))!;
    const ctx = { db: env.DB, publish: () => {}, config: config(env) };
    await expect(
      purchasePost(ctx, fanRow, post.id, { priceCents: 450, idempotencyKey: newKey() }),
    ).rejects.toMatchObject({ code: "payment_required" });
    expect((await balancesOf(env.DB, fan.user.userId)).wallet).toBe(400);
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM post_purchases WHERE post_id = ?").bind(post.id).first("n"),
    ).toBe(0);
  });
});

describe("the money screens", () => {
  it("the wallet reads its balance, a page of payments and the top-up come back from in one round trip; another's top-up is none", async () => {
    const fan = await createFan();
    const other = await createFan();
    const topUpId = await fundWallet(fan.user.userId, 2_500);
    const othersTopUp = await fundWallet(other.user.userId, 700);
    const { database, calls } = counted(env.DB);
    const wallet = await readWallet(database, fan.user.userId, { topUpId });
    expect(calls).toMatchObject({ single: 0, batches: 1 });
    expect(wallet).toMatchObject({ balanceCents: 2_500, nextCursor: null, topUp: { id: topUpId, kind: "top_up" } });
    expect(wallet.payments.map((payment) => payment.id)).toEqual([topUpId]);
    expect((await readWallet(env.DB, fan.user.userId, { topUpId: othersTopUp })).topUp).toBeNull();
    expect((await readWallet(env.DB, fan.user.userId)).topUp).toBeNull();
  });

  it("the withdrawal form reads the available earnings, the open payout and the payout method in one round trip", async () => {
    const creator = await createVerifiedCreator();
    await makeAvailable(creator.user.userId, 15_000);
    await env.DB.prepare(
      "INSERT INTO payout_methods (user_id, kind, paypal_email, updated_at) VALUES (?, 'paypal', 'payee@example.test', ?)",
    )
      .bind(creator.user.userId, new Date().toISOString())
      .run();
    const creatorRow = (await findUserById(env.DB, creator.user.userId))!;
    const { payout } = await requestWithdrawal(testContext(), creatorRow, {
      amountCents: 5_000,
      password: creator.input.password,
      idempotencyKey: newKey(),
    });
    const { database, calls } = counted(env.DB);
    const screen = await readWithdrawal(database, creator.user.userId);
    expect(calls).toMatchObject({ single: 0, batches: 1 });
    expect(screen).toMatchObject({
      availableCents: 10_000,
      openPayout: { id: payout.id, amountCents: 5_000 },
      payoutMethod: { kind: "paypal" },
    });
  });
});
