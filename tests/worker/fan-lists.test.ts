import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ListRef } from "@shared/contracts/fan-lists";
import { audienceSql, listFansSql } from "../../worker/domain/fan-lists/audience";
import { api, createUser, postJson, unique } from "./factories";
import { block, createPost, makeCreator } from "./timeline-fixtures";

type Summary = { ref: string; kind: string; name: string | null; count: number };
type ListedFan = { userId: number; username: string; name: string; spentCents: number; lastActiveAt: string | null };
type Page = { fans: ListedFan[]; nextCursor: string | null };

const DAY = 86_400_000;
const NOW = Date.now();
const at = (daysFromNow: number) => new Date(NOW + daysFromNow * DAY).toISOString();

/** A member straight into D1: enough for someone who only appears in a list. */
async function seedMember(name?: string) {
  const username = `fan${unique()}`.slice(0, 30);
  const row = await env.DB.prepare(
    `INSERT INTO users (username, name, email, password_hash, date_of_birth, account_type, created_at, updated_at)
     VALUES (?1, ?2, ?1 || '@example.com', 'x', '1990-01-01', 'other', ?3, ?3) RETURNING id`,
  )
    .bind(username, name ?? `Name ${username}`, at(0))
    .first<{ id: number }>();
  return { id: row!.id, username };
}
type Member = Awaited<ReturnType<typeof seedMember>>;

const seedFollow = (fan: Member, creatorId: number) =>
  env.DB.prepare("INSERT INTO follows (follower_id, creator_id, created_at) VALUES (?, ?, ?)")
    .bind(fan.id, creatorId, at(0))
    .run();

async function seedSubscription(
  fan: Member,
  creatorId: number,
  s: { status: string; periodEnd: string; trialEndsAt?: string },
): Promise<number> {
  const row = await env.DB.prepare(
    `INSERT INTO subscriptions (fan_id, creator_id, period, price_cents, status, started_at, current_period_end, trial_ends_at)
     VALUES (?, ?, 'month', 500, ?, ?, ?, ?) RETURNING id`,
  )
    .bind(fan.id, creatorId, s.status, at(-40), s.periodEnd, s.trialEndsAt ?? null)
    .first<{ id: number }>();
  return row!.id;
}

/** A free trial's claim of a trial link, as subscribing with one writes it. */
async function seedTrialClaim(fan: Member, creatorId: number, subscriptionId: number) {
  const offer = await env.DB.prepare(
    `INSERT INTO offers (creator_id, kind, percent_off, trial_days, code, ends_at, created_at)
     VALUES (?, 'trial', 100, 7, ?, ?, ?) RETURNING id`,
  )
    .bind(creatorId, `code${unique()}`, at(30), at(-41))
    .first<{ id: number }>();
  await env.DB.prepare(
    `INSERT INTO offer_claims (offer_id, creator_id, fan_id, subscription_id, free_trial, claimed_at) VALUES (?, ?, ?, ?, 1, ?)`,
  )
    .bind(offer!.id, creatorId, fan.id, subscriptionId, at(-40))
    .run();
}

/** A payment of `fan` to `creatorId`, with the (open) transfer a succeeded payment must name. */
async function pay(
  fan: Member,
  creatorId: number,
  kind: "subscription" | "renewal" | "tip" | "post" | "message",
  cents: number,
  options: { daysAgo?: number; status?: "succeeded" | "failed" } = {},
) {
  const when = at(-(options.daysAgo ?? 1));
  const status = options.status ?? "succeeded";
  const transfer =
    status === "succeeded"
      ? await env.DB.prepare("INSERT INTO ledger_transfers (ref, kind, created_at) VALUES (?, ?, ?) RETURNING id")
          .bind(crypto.randomUUID(), kind, when)
          .first<{ id: number }>()
      : null;
  await env.DB.prepare(
    `INSERT INTO payments (user_id, kind, amount_cents, status, creator_id, idempotency_key, request_hash, transfer_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'h', ?, ?, ?)`,
  )
    .bind(fan.id, kind, cents, status, creatorId, `u:${crypto.randomUUID()}`, transfer?.id ?? null, when, when)
    .run();
}

const seedPost = async (creatorId: number) => (await createPost(creatorId, { priceCents: 300 })).id;

const buyPost = (fan: Member, postId: number) =>
  env.DB.prepare("INSERT INTO post_purchases (post_id, user_id, price_cents, created_at) VALUES (?, ?, 300, ?)")
    .bind(postId, fan.id, at(-1))
    .run();

/** A conversation of the creator and a fan with one priced message in it (a copy of `massId` if given). */
async function seedPricedMessage(creatorId: number, fan: Member, massId: number | null): Promise<number> {
  const conversation = await env.DB.prepare(
    "INSERT INTO conversations (user_low, user_high, created_at) VALUES (?, ?, ?) RETURNING id",
  )
    .bind(Math.min(creatorId, fan.id), Math.max(creatorId, fan.id), at(-3))
    .first<{ id: number }>();
  const messageRow = await env.DB.prepare(
    `INSERT INTO messages (conversation_id, seq, sender_id, client_id, text, price_cents, media_count, mass_message_id, created_at)
     VALUES (?, 1, ?, ?, 'Look', 500, 1, ?, ?) RETURNING id`,
  )
    .bind(conversation!.id, creatorId, `c${crypto.randomUUID()}`, massId, at(-3))
    .first<{ id: number }>();
  return messageRow!.id;
}

const buyMessage = (fan: Member, messageId: number) =>
  env.DB.prepare("INSERT INTO message_purchases (message_id, user_id, price_cents, created_at) VALUES (?, ?, 500, ?)")
    .bind(messageId, fan.id, at(-1))
    .run();

async function seedMassMessage(creatorId: number): Promise<number> {
  const row = await env.DB.prepare(
    "INSERT INTO mass_messages (sender_id, client_id, include_lists, text, price_cents, created_at, send_at) VALUES (?, ?, '[\"subscribers\",\"followers\"]', 'Hi', 500, ?, datetime('now')) RETURNING id",
  )
    .bind(creatorId, `m${crypto.randomUUID()}`, at(-3))
    .first<{ id: number }>();
  return row!.id;
}

/** The ids `sql` (a list of creator ?1, ?2 now) answers, sorted. */
async function fansOf(sql: string, creatorId: number): Promise<number[]> {
  const { results } = await env.DB.prepare(sql).bind(creatorId, new Date().toISOString()).all<{ fan: number }>();
  return results.map((row) => row.fan).sort((a, b) => a - b);
}
const ids = (...members: Member[]) => members.map((member) => member.id).sort((a, b) => a - b);

async function makeList(token: string, name: string): Promise<number> {
  const response = await postJson("/lists", { name }, { token });
  expect(response.status).toBe(201);
  const created = (await response.json()) as Summary;
  return Number(created.ref.replace("custom:", ""));
}

const putFan = (token: string, listId: number, username: string) =>
  api(`/lists/${listId}/fans/${username}`, { method: "PUT", token });

async function page(token: string, ref: string, query = ""): Promise<Page> {
  const response = await api(`/lists/${ref}/fans${query}`, { token });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Page;
}

/** Every fan of a list, page after page. */
async function everyPage(token: string, ref: string, search = ""): Promise<ListedFan[]> {
  const fans: ListedFan[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams(search ? { q: search } : {});
    if (cursor) params.set("cursor", cursor);
    const next: Page = await page(token, ref, `?${params.toString()}`);
    fans.push(...next.fans);
    cursor = next.nextCursor;
  } while (cursor);
  return fans;
}

describe("the lists the system keeps", () => {
  it("each list holds exactly the fans its rule names, and nothing of another creator", async () => {
    const creator = await makeCreator();
    const other = await makeCreator();
    const creatorId = creator.user.userId;
    const otherId = other.user.userId;
    const [
      active,
      cancelled,
      expired,
      runOut,
      follower,
      followerOnceSubscribed,
      onTrial,
      trialOver,
      tipper,
      failedTipper,
      oldSpender,
      otherCreatorsTipper,
      postBuyer,
      messageBuyer,
      massBuyer,
      massBuyerToo,
      otherPostBuyer,
    ] = await Promise.all(Array.from({ length: 17 }, () => seedMember()));
    await seedSubscription(active!, creatorId, { status: "active", periodEnd: at(20) });
    await seedSubscription(cancelled!, creatorId, { status: "cancelled", periodEnd: at(3) });
    await seedSubscription(expired!, creatorId, { status: "expired", periodEnd: at(-10) });
    await seedSubscription(runOut!, creatorId, { status: "cancelled", periodEnd: at(-1) });
    await seedFollow(follower!, creatorId);
    await seedFollow(followerOnceSubscribed!, creatorId);
    await seedSubscription(followerOnceSubscribed!, creatorId, { status: "expired", periodEnd: at(-5) });
    const trial = await seedSubscription(onTrial!, creatorId, {
      status: "active",
      periodEnd: at(5),
      trialEndsAt: at(5),
    });
    await seedTrialClaim(onTrial!, creatorId, trial);
    const converted = await seedSubscription(trialOver!, creatorId, {
      status: "active",
      periodEnd: at(25),
      trialEndsAt: at(-5),
    });
    await seedTrialClaim(trialOver!, creatorId, converted);
    await pay(tipper!, creatorId, "tip", 700);
    await pay(failedTipper!, creatorId, "tip", 900, { status: "failed" });
    await pay(oldSpender!, creatorId, "subscription", 2000, { daysAgo: 60 });
    await pay(otherCreatorsTipper!, otherId, "tip", 400);
    const post = await seedPost(creatorId);
    const otherPost = await seedPost(otherId);
    await buyPost(postBuyer!, post);
    await buyPost(otherPostBuyer!, otherPost);
    const message = await seedPricedMessage(creatorId, messageBuyer!, null);
    await buyMessage(messageBuyer!, message);
    const mass = await seedMassMessage(creatorId);
    await buyMessage(massBuyer!, await seedPricedMessage(creatorId, massBuyer!, mass));
    await buyMessage(massBuyerToo!, await seedPricedMessage(creatorId, massBuyerToo!, mass));
    await seedPricedMessage(creatorId, postBuyer!, mass);

    const expectations: [ListRef, number[]][] = [
      ["subscribers", ids(active!, cancelled!, onTrial!, trialOver!)],
      ["expired", ids(expired!, runOut!, followerOnceSubscribed!)],
      ["followers", ids(follower!)],
      ["trial", ids(onTrial!)],
      ["tippers", ids(tipper!)],
      ["top-spenders:30", ids(tipper!)],
      ["top-spenders:90", ids(tipper!, oldSpender!)],
      ["top-spenders:all", ids(tipper!, oldSpender!)],
      [`buyers:post:${post}`, ids(postBuyer!)],
      [`buyers:post:${otherPost}`, []],
      [`buyers:message:${message}`, ids(messageBuyer!)],
      [`buyers:mass:${mass}`, ids(massBuyer!, massBuyerToo!)],
    ];
    for (const [ref, expected] of expectations)
      expect(await fansOf(listFansSql(ref), creatorId), ref).toEqual(expected);
    // The other creator's own buyers of their post are theirs.
    expect(await fansOf(listFansSql(`buyers:post:${otherPost}`), otherId)).toEqual(ids(otherPostBuyer!));

    // The summary counts the same lists through the API.
    const response = await api("/lists", { token: creator.token });
    expect(response.status).toBe(200);
    const { lists } = (await response.json()) as { lists: Summary[] };
    expect(lists.map((list) => [list.ref, list.count])).toEqual([
      ["subscribers", 4],
      ["expired", 3],
      ["followers", 1],
      ["tippers", 1],
      ["trial", 1],
      ["top-spenders:30", 1],
    ]);
  });

  it("top spenders are ordered by what they spent in the period, paged without repeats", async () => {
    const creator = await makeCreator();
    const creatorId = creator.user.userId;
    const spenders = await Promise.all(Array.from({ length: 23 }, () => seedMember()));
    // Every amount twice (ties are broken by fan id), one fan with two payments that add up.
    for (const [index, fan] of spenders.entries()) await pay(fan, creatorId, "tip", 100 * Math.floor(index / 2) + 100);
    await pay(spenders[0]!, creatorId, "post", 5000);
    await pay(spenders[1]!, creatorId, "post", 9000, { daysAgo: 40 });
    const fans = await everyPage(creator.token, "top-spenders:30");
    const expected = spenders
      .map((fan, index) => ({ id: fan.id, spent: 100 * Math.floor(index / 2) + 100 + (index === 0 ? 5000 : 0) }))
      .sort((a, b) => b.spent - a.spent || b.id - a.id);
    expect(fans.map((fan) => [fan.userId, fan.spentCents])).toEqual(expected.map((fan) => [fan.id, fan.spent]));
    // Over every time, the older payment counts too.
    const all = await page(creator.token, "top-spenders:all");
    expect(all.fans[0]).toMatchObject({ userId: spenders[1]!.id, spentCents: 9100 });
  });
});

describe("custom lists", () => {
  it("a creator makes, renames and deletes lists; names are checked and unique", async () => {
    const creator = await makeCreator();
    const id = await makeList(creator.token, "Regulars");
    const duplicate = await postJson("/lists", { name: "regulars" }, { token: creator.token });
    expect(duplicate.status).toBe(422);
    expect(await duplicate.json()).toMatchObject({ errors: { name: ["You already have a list with this name."] } });
    for (const name of ["", "   ", "x".repeat(51)]) {
      const refused = await postJson("/lists", { name }, { token: creator.token });
      expect(refused.status, JSON.stringify(name)).toBe(422);
    }
    const renamed = await api(`/lists/${id}`, {
      method: "PATCH",
      token: creator.token,
      body: JSON.stringify({ name: "  Best fans " }),
    });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toEqual({ ref: `custom:${id}`, kind: "custom", name: "Best fans", count: 0 });
    const { lists } = (await (await api("/lists", { token: creator.token })).json()) as { lists: Summary[] };
    expect(lists.filter((list) => list.kind === "custom")).toEqual([
      { ref: `custom:${id}`, kind: "custom", name: "Best fans", count: 0 },
    ]);
    expect((await api(`/lists/${id}`, { method: "DELETE", token: creator.token })).status).toBe(204);
    expect((await api(`/lists/${id}`, { method: "DELETE", token: creator.token })).status).toBe(404);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM fan_lists WHERE id = ?").bind(id).first("n")).toBe(0);
  });

  it("takes only the creator's fans: followers, subscribers present or past, and who paid them", async () => {
    const creator = await makeCreator();
    const other = await makeCreator();
    const creatorId = creator.user.userId;
    const [follower, former, stranger, tipper] = await Promise.all(Array.from({ length: 4 }, () => seedMember()));
    await seedFollow(follower!, creatorId);
    await pay(tipper!, creatorId, "tip", 100);
    await seedFollow(stranger!, other.user.userId);
    await pay(stranger!, creatorId, "tip", 100, { status: "failed" });
    await seedSubscription(former!, creatorId, { status: "expired", periodEnd: at(-3) });
    const list = await makeList(creator.token, "Close");
    expect(await (await putFan(creator.token, list, follower!.username)).json()).toEqual({
      lists: [{ id: list, name: "Close", member: true }],
    });
    expect((await putFan(creator.token, list, follower!.username)).status).toBe(200);
    expect((await putFan(creator.token, list, former!.username)).status).toBe(200);
    const refused = await putFan(creator.token, list, stranger!.username);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({
      message: "Only your fans can be put in a list: followers, subscribers present or past, and those who paid you.",
    });
    expect((await putFan(creator.token, list, "nobody-by-that-name")).status).toBe(404);
    expect((await putFan(creator.token, list, tipper!.username)).status).toBe(200);
    expect(await fansOf(listFansSql(`custom:${list}`), creatorId)).toEqual(ids(follower!, former!, tipper!));

    const menu = await api(`/lists/memberships/${former!.username}`, { token: creator.token });
    expect(await menu.json()).toEqual({ lists: [{ id: list, name: "Close", member: true }] });
    const removed = await api(`/lists/${list}/fans/${former!.username}`, { method: "DELETE", token: creator.token });
    expect(removed.status).toBe(204);
    expect(await fansOf(listFansSql(`custom:${list}`), creatorId)).toEqual(ids(follower!, tipper!));
    const after = await api(`/lists/memberships/${former!.username}`, { token: creator.token });
    expect(await after.json()).toEqual({ lists: [{ id: list, name: "Close", member: false }] });
  });

  it("pages a list by fan, searches by username or name, and leaves out blocked members", async () => {
    const creator = await makeCreator();
    const creatorId = creator.user.userId;
    const fans = await Promise.all(
      Array.from({ length: 45 }, (_, index) => seedMember(index % 10 === 0 ? `Ten_percent ${index}` : undefined)),
    );
    const list = await makeList(creator.token, "Everyone");
    for (const fan of fans) {
      await seedFollow(fan, creatorId);
      expect((await putFan(creator.token, list, fan.username)).status).toBe(200);
    }
    await pay(fans[3]!, creatorId, "tip", 1200);
    await pay(fans[3]!, creatorId, "message", 300, { daysAgo: 200 });
    await env.DB.prepare(
      "INSERT INTO sessions (user_id, token_hash, created_at, expires_at, last_active_at) VALUES (?, ?, ?, ?, ?)",
    )
      .bind(fans[3]!.id, crypto.randomUUID(), at(-2), at(20), at(-1))
      .run();
    await block(creatorId, fans[5]!.id);
    await block(fans[6]!.id, creatorId);

    const listed = await everyPage(creator.token, `custom:${list}`);
    const visible = fans.filter((_, index) => index !== 5 && index !== 6);
    expect(listed.map((fan) => fan.userId)).toEqual(visible.map((fan) => fan.id).sort((a, b) => b - a));
    expect(listed.find((fan) => fan.userId === fans[3]!.id)).toMatchObject({
      spentCents: 1500,
      lastActiveAt: at(-1),
    });
    expect(listed.find((fan) => fan.userId === fans[4]!.id)).toMatchObject({ spentCents: 0, lastActiveAt: null });
    expect((await page(creator.token, `custom:${list}`)).fans).toHaveLength(20);

    const found = await everyPage(creator.token, `custom:${list}`, "ten_PERCENT");
    expect(found.map((fan) => fan.userId).sort((a, b) => a - b)).toEqual(
      ids(...fans.filter((_, index) => index % 10 === 0)),
    );
    const byUsername = await page(creator.token, `custom:${list}`, `?q=${fans[7]!.username}`);
    expect(byUsername.fans.map((fan) => fan.userId)).toEqual([fans[7]!.id]);
    // A wildcard is a character like any other.
    expect((await page(creator.token, `custom:${list}`, "?q=%25")).fans).toEqual([]);

    const { lists } = (await (await api("/lists", { token: creator.token })).json()) as { lists: Summary[] };
    expect(lists.find((summary) => summary.ref === `custom:${list}`)?.count).toBe(43);
    expect(lists.find((summary) => summary.ref === "followers")?.count).toBe(43);
  });

  it("a mass message's audience: any included list, no excluded one, no block either way", async () => {
    const creator = await makeCreator();
    const creatorId = creator.user.userId;
    const other = await makeCreator();
    const [a, b, c, d, blocked] = await Promise.all(Array.from({ length: 5 }, () => seedMember()));
    for (const fan of [a, b, c, d, blocked]) await seedFollow(fan!, creatorId);
    await seedFollow(a!, other.user.userId);
    const one = await makeList(creator.token, "One");
    const two = await makeList(creator.token, "Two");
    const out = await makeList(creator.token, "Out");
    const theirs = await makeList(other.token, "Theirs");
    for (const fan of [a, b, blocked]) await putFan(creator.token, one, fan!.username);
    for (const fan of [b, c]) await putFan(creator.token, two, fan!.username);
    await putFan(creator.token, out, c!.username);
    await putFan(other.token, theirs, a!.username);
    await block(blocked!.id, creatorId);

    const audience = (include: ListRef[], exclude: ListRef[]) => fansOf(audienceSql(include, exclude), creatorId);
    expect(await audience([`custom:${one}`], [])).toEqual(ids(a!, b!));
    expect(await audience([`custom:${one}`, `custom:${two}`], [])).toEqual(ids(a!, b!, c!));
    expect(await audience([`custom:${one}`, `custom:${two}`], [`custom:${out}`])).toEqual(ids(a!, b!));
    expect(await audience([`custom:${two}`], [`custom:${two}`])).toEqual([]);
    expect(await audience(["followers"], [`custom:${one}`, `custom:${out}`])).toEqual(ids(d!));
    // Another creator's list holds nobody for this one, included or excluded.
    expect(await audience([`custom:${theirs}`], [])).toEqual([]);
    expect(await audience([`custom:${one}`], [`custom:${theirs}`])).toEqual(ids(a!, b!));
  });
});

describe("who may see and change lists", () => {
  it("owner, other creator, fan and visitor", async () => {
    const creator = await makeCreator();
    const other = await makeCreator();
    const fan = await createUser();
    const fanMember = { id: fan.user.userId, username: fan.user.username };
    await seedFollow(fanMember, creator.user.userId);
    await seedFollow(fanMember, other.user.userId);
    const list = await makeList(creator.token, "Mine");
    expect((await putFan(creator.token, list, fanMember.username)).status).toBe(200);

    // Another creator: the list does not exist for them, and their menu shows only their lists.
    expect((await api(`/lists/custom:${list}/fans`, { token: other.token })).status).toBe(404);
    const rename = { method: "PATCH", body: JSON.stringify({ name: "Taken" }) };
    expect((await api(`/lists/${list}`, { ...rename, token: other.token })).status).toBe(404);
    expect((await api(`/lists/${list}`, { method: "DELETE", token: other.token })).status).toBe(404);
    expect((await putFan(other.token, list, fanMember.username)).status).toBe(404);
    expect(
      (await api(`/lists/${list}/fans/${fanMember.username}`, { method: "DELETE", token: other.token })).status,
    ).toBe(404);
    expect(await (await api(`/lists/memberships/${fanMember.username}`, { token: other.token })).json()).toEqual({
      lists: [],
    });
    const theirSummary = (await (await api("/lists", { token: other.token })).json()) as { lists: Summary[] };
    expect(theirSummary.lists.some((summary) => summary.kind === "custom")).toBe(false);

    // The fan reaches no list, not even to learn they are in one.
    for (const path of ["/lists", `/lists/custom:${list}/fans`, `/lists/memberships/${fanMember.username}`])
      expect((await api(path, { token: fan.token })).status, path).toBe(403);
    expect((await postJson("/lists", { name: "Mine" }, { token: fan.token })).status).toBe(403);
    expect((await api(`/me/fans/${creator.user.username}`, { token: fan.token })).status).toBe(403);
    // A visitor is asked to sign in.
    for (const path of ["/lists", `/lists/custom:${list}/fans`, `/me/fans/${fanMember.username}`])
      expect((await api(path)).status, path).toBe(401);
    // The owner still has it all.
    expect((await page(creator.token, `custom:${list}`)).fans.map((listed) => listed.userId)).toEqual([fanMember.id]);
    expect((await api(`/lists/${list}`, { ...rename, token: creator.token })).status).toBe(200);
  });

  it("bad references, positions and searches are refused with a translated 422", async () => {
    const creator = await makeCreator();
    for (const ref of ["nobody", "custom:0", "custom:x", "top-spenders:8", "buyers:story:1", "custom:1:2"]) {
      const response = await api(`/lists/${ref}/fans`, { token: creator.token });
      expect(response.status, ref).toBe(422);
      expect(((await response.json()) as { message: string }).message).toBe("This list does not exist.");
    }
    for (const cursor of ["abc", "0", "-1", "1.", ".5"])
      expect((await api(`/lists/subscribers/fans?cursor=${cursor}`, { token: creator.token })).status, cursor).toBe(
        422,
      );
    expect((await api(`/lists/subscribers/fans?q=${"x".repeat(61)}`, { token: creator.token })).status).toBe(422);
    // A list id that was never made is not found, not an error.
    expect((await api("/lists/custom:999999/fans", { token: creator.token })).status).toBe(404);
    expect((await putFan(creator.token, 999999, creator.user.username)).status).toBe(404);
  });
});

describe("a fan's detail for their creator", () => {
  it("shows the subscription, the spending by kind and the conversation; others are not found", async () => {
    const creator = await makeCreator();
    const creatorId = creator.user.userId;
    const [fan, stranger, tipper] = await Promise.all([seedMember(), seedMember(), seedMember()]);
    const subscription = await seedSubscription(fan!, creatorId, { status: "active", periodEnd: at(12) });
    await pay(fan!, creatorId, "subscription", 500, { daysAgo: 40 });
    await pay(fan!, creatorId, "renewal", 500);
    await pay(fan!, creatorId, "tip", 250);
    await pay(fan!, creatorId, "post", 300);
    await pay(fan!, creatorId, "message", 700);
    await pay(fan!, creatorId, "tip", 9999, { status: "failed" });
    await pay(tipper!, creatorId, "tip", 100);
    await seedPricedMessage(creatorId, fan!, null);
    const conversation = await env.DB.prepare("SELECT id FROM conversations WHERE user_low = ? AND user_high = ?")
      .bind(Math.min(creatorId, fan!.id), Math.max(creatorId, fan!.id))
      .first<number>("id");

    const response = await api(`/me/fans/${fan!.username}`, { token: creator.token });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      userId: fan!.id,
      subscription: { id: subscription, status: "active" },
      following: false,
      spending: {
        subscriptionsCents: 1000,
        tipsCents: 250,
        postsCents: 300,
        messagesCents: 700,
        liveCents: 0,
        totalCents: 2250,
      },
      conversationId: conversation,
    });
    // Who paid is a fan (they are in tippers); someone else is not found, nor is a blocked fan.
    expect(await (await api(`/me/fans/${tipper!.username}`, { token: creator.token })).json()).toMatchObject({
      subscription: null,
      spending: { tipsCents: 100, totalCents: 100 },
      conversationId: null,
    });
    expect((await api(`/me/fans/${stranger!.username}`, { token: creator.token })).status).toBe(404);
    await block(fan!.id, creatorId);
    expect((await api(`/me/fans/${fan!.username}`, { token: creator.token })).status).toBe(404);
  });
});
