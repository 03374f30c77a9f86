import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../worker/app";
import { forgetSessionsOf, SessionCheckFailed } from "../../worker/domain/auth/sessions";
import { requestDatabase } from "../../worker/db/request-database";
import { commitGrouped } from "../../worker/domain/money/group-commit";
import { balancesOf } from "../../worker/domain/money/ledger";
import { SESSION_CHECK_RIDES } from "../../worker/http/session-check";
import { csrfTokenFor } from "../../worker/http/middleware";
import { sha256Hex } from "../../worker/domain/shared/crypto";
import type { Env } from "../../worker/env";
import { withInlineQueue } from "./entry";
import { api, countRows, createUser, postJson } from "./factories";
import { counted } from "./counted-db";
import { createFan, createVerifiedCreator, fundWallet, newKey } from "./money-fixtures";
import { createPost, follow } from "./timeline-fixtures";

/**
 * The hot writes of worker/http/session-check.ts start from the isolate's copy of the session and confirm it in
 * their first batch of reads: one round trip fewer, and still nothing written or answered for a session D1 no
 * longer has, nor on a user row that changed since the copy.
 */

const app = createApp(null);

/**
 * The Worker's answer to an API call and the D1 round trips it took (all of the request's, the middleware's too),
 * through this file's app, whose session copies the calls share.
 */
async function call(path: string, token: string, body?: unknown, method = body === undefined ? "GET" : "POST") {
  const { database, calls } = counted(env.DB);
  const pending: Promise<unknown>[] = [];
  const ctx = createExecutionContext();
  const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  const request = new Request(`https://app.test/api${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const response = await app.fetch(request, withInlineQueue({ ...env, DB: database } as Env, (work) => void pending.push(work)), ctx);
  await waitOnExecutionContext(ctx);
  while (pending.length > 0) await Promise.allSettled(pending.splice(0));
  return { response, trips: calls.single + calls.batches, calls };
}

/** A copy of the session in the isolate, as any page or API read leaves one. */
const warmCopy = async (token: string) => expect((await call("/me", token)).response.status).toBe(200);

async function tipping() {
  const [fan, creator] = await Promise.all([createFan(), createVerifiedCreator()]);
  await fundWallet(fan.user.userId, 5_000);
  return { fan, creator, tip: (cents = 300) => ({ amountCents: cents, idempotencyKey: newKey() }) };
}

describe("a hot write's session check", () => {
  it("rides the tip's first batch: two round trips from a copy, three without one, each tip paid once", async () => {
    const { fan, creator, tip } = await tipping();
    const path = `/users/${creator.user.username}/tips`;
    await warmCopy(fan.token);
    const fromCopy = await call(path, fan.token, tip());
    expect(fromCopy.response.status).toBe(200);
    // The check, the replay lookup and the creator's lookup together, then the payment's commit.
    expect(fromCopy.trips).toBe(2);
    expect(fromCopy.calls.single).toBe(0);

    forgetSessionsOf(fan.user.userId);
    const fresh = await call(path, fan.token, tip());
    expect(fresh.response.status).toBe(200);
    expect(fresh.trips).toBe(3);
    // The tip read the session fresh and left a copy: the next one starts from it.
    expect((await call(path, fan.token, tip())).trips).toBe(2);
    expect((await balancesOf(env.DB, fan.user.userId)).wallet).toBe(5_000 - 900);
  });

  it("saves a round trip on every write it lists: one fewer from a copy than reading the session first", async () => {
    const { fan, creator } = await tipping();
    const other = await createVerifiedCreator();
    const [one, two] = [await createPost(creator.user.userId), await createPost(creator.user.userId)];
    await follow(fan.user.userId, creator.user.userId);
    const conversation = (await (await call("/conversations", fan.token, { username: creator.user.username })).response.json()) as { id: number };
    for (const { user } of [creator, other])
      await env.DB.prepare("INSERT INTO subscription_plans (creator_id, period, price_cents, updated_at) VALUES (?, 'month', 0, ?)").bind(user.userId, new Date().toISOString()).run();
    // Each write twice, as the same kind of change (the second run on the other post, or undoing the first).
    const writes: Array<[string, (run: number) => [path: string, body: unknown, method?: string]]> = [
      ["like", (run) => [`/posts/${[one, two][run]!.id}/like`, {}]],
      ["comment", (run) => [`/posts/${one.id}/comments`, { text: `comment ${run}` }]],
      ["message", (run) => [`/conversations/${conversation.id}/messages`, { clientId: `message-${run}`, text: `message ${run}` }]],
      ["read mark", () => [`/conversations/${conversation.id}/read`, {}]],
      ["bookmark", (run) => [`/posts/${[one, two][run]!.id}/bookmark`, {}]],
      ["follow", (run) => [`/users/${other.user.username}/follow`, {}, run === 0 ? "POST" : "DELETE"]],
      ["free subscription", (run) => [`/users/${[other, creator][run]!.user.username}/subscribe`, { period: "month" }]],
    ];
    for (const [what, write] of writes) {
      const send = (run: number) => {
        const [path, body, method] = write(run);
        return call(path, fan.token, body, method);
      };
      await warmCopy(fan.token);
      const fromCopy = await send(0);
      forgetSessionsOf(fan.user.userId);
      const fresh = await send(1);
      expect([fromCopy.response.status, fresh.response.status], what).toEqual(what === "comment" ? [201, 201] : [200, 200]);
      expect(fresh.trips - fromCopy.trips, what).toBe(1);
    }
  });

  it("leaves a session in its second half to the next request's read, which slides it forward", async () => {
    const { fan, creator } = await tipping();
    const post = await createPost(creator.user.userId);
    const expiry = () => env.DB.prepare("SELECT expires_at FROM sessions WHERE user_id = ?").bind(fan.user.userId).first<string>("expires_at");
    await warmCopy(fan.token);
    // Ten days left, behind the copy's back (it was read with thirty).
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE user_id = ?").bind(new Date(Date.now() + 10 * 86_400_000).toISOString(), fan.user.userId).run();
    expect((await call(`/posts/${post.id}/like`, fan.token, {})).response.status).toBe(200);
    expect(Date.parse((await expiry())!)).toBeLessThan(Date.now() + 11 * 86_400_000);
    // The like was confirmed, and the copy not renewed: this read goes to D1 and slides the session.
    expect((await call("/me", fan.token)).trips).toBe(2);
    expect(Date.parse((await expiry())!)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
  });

  it("works the same for the pages' cookie: from the copy with the CSRF token, refused without it", async () => {
    const { fan, creator } = await tipping();
    const post = await createPost(creator.user.userId);
    const cookie = `__Host-session=${fan.token}`;
    const like = (headers: Record<string, string>) => app.fetch(new Request(`https://app.test/api/posts/${post.id}/like`, { method: "POST", headers: { Cookie: cookie, ...headers } }), env, createExecutionContext());
    expect((await app.fetch(new Request("https://app.test/api/me", { headers: { Cookie: cookie } }), env, createExecutionContext())).status).toBe(200);
    expect((await like({})).status).toBe(403);
    expect((await like({ "X-CSRF-Token": "forged" })).status).toBe(403);
    expect(await countRows("likes")).toBe(0);
    const liked = await like({ "X-CSRF-Token": await csrfTokenFor(env.APP_SECRET!, await sha256Hex(fan.token)) });
    expect(await liked.json()).toEqual({ liked: true, likeCount: 1 });
  });

  it("refuses every hot write of a session ended behind the copy's back, and writes nothing", async () => {
    const { fan, creator, tip } = await tipping();
    const stranger = await createVerifiedCreator();
    const post = await createPost(creator.user.userId);
    await follow(fan.user.userId, creator.user.userId);
    const conversation = (await (await postJson("/conversations", { username: creator.user.username }, { token: fan.token })).json()) as { id: number };
    const writes: Array<[string, () => Promise<Response>]> = [
      ["tip", () => postJson(`/users/${creator.user.username}/tips`, tip(), { token: fan.token })],
      ["tip on a post", () => postJson(`/posts/${post.id}/tips`, tip(), { token: fan.token })],
      ["like", () => postJson(`/posts/${post.id}/like`, {}, { token: fan.token })],
      ["comment", () => postJson(`/posts/${post.id}/comments`, { text: "hello" }, { token: fan.token })],
      ["message", () => postJson(`/conversations/${conversation.id}/messages`, { clientId: newKey(), text: "hi" }, { token: fan.token })],
      ["follow", () => postJson(`/users/${stranger.user.username}/follow`, {}, { token: fan.token })],
      ["bookmark", () => postJson(`/posts/${post.id}/bookmark`, {}, { token: fan.token })],
      // Refused by validation before any read: the check still goes, alone, before the answer.
      ["a tip that is not a number", () => postJson(`/users/${creator.user.username}/tips`, { ...tip(), amountCents: "x" }, { token: fan.token })],
    ];
    const count = async () => ({
      likes: await countRows("likes"),
      comments: await countRows("comments"),
      messages: await countRows("messages"),
      follows: await countRows("follows"),
      bookmarks: await countRows("bookmarks"),
    });
    const before = await count();
    const warmCopyOverHttp = async () => expect((await api("/me", { token: fan.token })).status).toBe(200);
    for (const [what, write] of writes) {
      const session = await env.DB.prepare("SELECT * FROM sessions WHERE user_id = ?").bind(fan.user.userId).first<Record<string, unknown>>();
      await warmCopyOverHttp();
      // Signed out in another isolate: this isolate's copy knows nothing of it.
      await env.DB.prepare("DELETE FROM sessions WHERE user_id = ?").bind(fan.user.userId).run();
      const response = await write();
      expect(response.status, what).toBe(401);
      // The copy is gone with the failed check: a read is refused too.
      expect((await api("/me", { token: fan.token })).status, what).toBe(401);
      await env.DB.prepare("INSERT INTO sessions (id, user_id, token_hash, created_at, expires_at, user_agent) VALUES (?, ?, ?, ?, ?, ?)")
        .bind(session!.id, session!.user_id, session!.token_hash, session!.created_at, session!.expires_at, session!.user_agent)
        .run();
    }
    expect(await countRows("payments WHERE kind = 'tip'")).toBe(0);
    expect((await balancesOf(env.DB, fan.user.userId)).wallet).toBe(5_000);
    expect(await count()).toEqual(before);
    // The same session, restored, writes as before.
    await warmCopyOverHttp();
    expect((await postJson(`/posts/${post.id}/like`, {}, { token: fan.token })).status).toBe(200);
  });

  it("runs the write again from D1's row when the user changed since the copy, and answers what that row calls for", async () => {
    const { fan, creator, tip } = await tipping();
    const path = `/users/${creator.user.username}/tips`;
    // The copy says verified; D1 no longer does: refused as a fresh read refuses it, nothing paid.
    await warmCopy(fan.token);
    await env.DB.prepare("UPDATE users SET email_verified_at = NULL WHERE id = ?").bind(fan.user.userId).run();
    const { response: refused } = await call(path, fan.token, tip());
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toMatch(/verif/i);
    expect(await countRows("payments WHERE kind = 'tip'")).toBe(0);
    // The copy says unverified; D1 says verified: the second run pays (the first alone would have refused).
    await warmCopy(fan.token);
    await env.DB.prepare("UPDATE users SET email_verified_at = ? WHERE id = ?").bind(new Date().toISOString(), fan.user.userId).run();
    const { response: paid } = await call(path, fan.token, tip());
    expect(paid.status, await paid.clone().text()).toBe(200);
    expect(await countRows("payments WHERE kind = 'tip'")).toBe(1);
    // The second run gets the first one's body again (a comment's text), or none (taking a like back).
    const post = await createPost(creator.user.userId);
    const rename = (name: string) => env.DB.prepare("UPDATE users SET name = ? WHERE id = ?").bind(name, fan.user.userId).run();
    await warmCopy(fan.token);
    await rename("Renamed once");
    const { response: commented } = await call(`/posts/${post.id}/comments`, fan.token, { text: "Sent twice, stored once" });
    expect(commented.status).toBe(201);
    expect(((await commented.json()) as { comment: { text: string; author: { name: string } } }).comment).toMatchObject({
      text: "Sent twice, stored once",
      author: { name: "Renamed once" },
    });
    expect(await countRows(`comments WHERE post_id = ${post.id}`)).toBe(1);
    expect((await call(`/posts/${post.id}/like`, fan.token, {})).response.status).toBe(200);
    await warmCopy(fan.token);
    await rename("Renamed twice");
    const unliked = await app.fetch(
      new Request(`https://app.test/api/posts/${post.id}/like`, { method: "DELETE", headers: { Authorization: `Bearer ${fan.token}` } }),
      env,
      createExecutionContext(),
    );
    expect(await unliked.json()).toEqual({ liked: false, likeCount: 0 });
    // A counter kept by a trigger is not a change: a follow elsewhere leaves the copy standing (two round trips).
    await warmCopy(fan.token);
    await follow(fan.user.userId, creator.user.userId);
    expect((await call(path, fan.token, tip())).trips).toBe(2);
  });

  it("holds back writes through the request's database and grouped commits until it passes, and drops them when it fails", async () => {
    const fan = await createUser();
    const failing = requestDatabase(env.DB, new Request("https://app.test/api/x", { method: "POST" }), () => {});
    failing.checkSession({
      query: "SELECT 1 AS n WHERE 0",
      params: [],
      check: (result) => {
        if (result.results.length === 0) throw new SessionCheckFailed("ended");
      },
    });
    const insert = (db: D1Database, text: string) =>
      db.prepare("INSERT INTO notifications (user_id, kind, params, created_at) VALUES (?, 'test', ?, ?)").bind(fan.user.userId, JSON.stringify({ text }), new Date().toISOString());
    await expect(insert(failing.db, "run").run()).rejects.toBeInstanceOf(SessionCheckFailed);
    await expect(failing.db.batch([insert(failing.db, "batch")])).rejects.toBeInstanceOf(SessionCheckFailed);
    await expect(commitGrouped(failing.db, [insert(failing.db, "grouped")])).rejects.toBeInstanceOf(SessionCheckFailed);
    await expect(failing.db.prepare("SELECT 1 AS n").first()).rejects.toBeInstanceOf(SessionCheckFailed);
    expect(await countRows(`notifications WHERE user_id = ${fan.user.userId}`)).toBe(0);

    // Passing: the reads of the first turn carry it (one batch), and the writes go after it.
    const { database, calls } = counted(env.DB);
    const passing = requestDatabase(database, new Request("https://app.test/api/x", { method: "POST" }), () => {});
    let checked = 0;
    passing.checkSession({ query: "SELECT 1 AS n", params: [], check: () => void checked++ });
    const [one, two] = await Promise.all([passing.db.prepare("SELECT 1 AS n").first("n"), passing.db.prepare("SELECT 2 AS n").first("n")]);
    expect([one, two, checked]).toEqual([1, 2, 1]);
    expect(calls).toMatchObject({ single: 0, batches: 1, batchSizes: [3] });
    await commitGrouped(passing.db, [insert(passing.db, "grouped")]);
    await insert(passing.db, "run").run();
    expect(await countRows(`notifications WHERE user_id = ${fan.user.userId}`)).toBe(2);
    expect(checked).toBe(1);
  });

  it("lists only paths that are routes of the API", async () => {
    const { paths } = (await (await api("/openapi.json")).json()) as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} /api${path.replace(/\{[^}]+\}/g, "x")}`));
    for (const [method, pattern] of SESSION_CHECK_RIDES) {
      expect(routes.some((route) => route.startsWith(`${method} `) && pattern.test(route.slice(method.length + 1))), `${method} ${pattern}`).toBe(true);
    }
  });
});
