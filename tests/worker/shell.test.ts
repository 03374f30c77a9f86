import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { stopClockAt } from "./clock";
import { api, createUser, followQuietCreators, postJson } from "./factories";
import { follow } from "./timeline-fixtures";
import type { UserRow } from "../../worker/domain/accounts/users";
import { MANY_FOLLOWS } from "../../worker/domain/timeline/get-timeline";
import { updatesStatement } from "../../worker/domain/updates/get-updates";

type Updates = { home: boolean; notifications: number; messages: number; balance: boolean };

const updatesOf = async (token: string) => {
  const response = await api("/updates", { token });
  expect(response.status).toBe(200);
  return ((await response.json()) as { updates: Updates }).updates;
};

async function makeCreator(overrides: { name?: string; username?: string } = {}) {
  const creator = await createUser(overrides);
  await env.DB.prepare("UPDATE users SET role = 'creator' WHERE id = ?").bind(creator.user.userId).run();
  return creator;
}

const publish = (userId: number, publishedAt: Date) =>
  env.DB.prepare(
    "INSERT INTO posts (user_id, text, audience, published_at, created_at) VALUES (?, 'hello', 'everyone', ?, ?)",
  )
    .bind(userId, publishedAt.toISOString(), publishedAt.toISOString())
    .run();

/** The clock stopped at `start`, a fan, a creator the fan follows and one the fan does not. */
async function homeDotScene() {
  const start = new Date();
  stopClockAt(start);
  const fan = await createUser();
  const followed = await makeCreator();
  const stranger = await makeCreator();
  await follow(fan.user.userId, followed.user.userId);
  return { start, fan, followed, stranger };
}

describe("GET /api/updates", () => {
  it("needs a session", async () => {
    expect((await api("/updates")).status).toBe(401);
  });

  it("starts with nothing to show", async () => {
    const fan = await createUser();
    expect(await updatesOf(fan.token)).toEqual({ home: false, notifications: 0, messages: 0, balance: false });
  });

  it("lights Home when a followed creator posts, and clears it once /home is opened", async () => {
    const { start, fan, followed, stranger } = await homeDotScene();

    await publish(stranger.user.userId, new Date(start.getTime() + 1000));
    await publish(followed.user.userId, new Date(start.getTime() + 3_600_000)); // scheduled, not out yet
    expect((await updatesOf(fan.token)).home).toBe(false);

    await publish(followed.user.userId, new Date(start.getTime() + 1000));
    expect((await updatesOf(fan.token)).home).toBe(false); // published a second from now: not out yet either
    stopClockAt(new Date(start.getTime() + 1000));
    expect((await updatesOf(fan.token)).home).toBe(true);

    // Opening /home (the page's POST): the write also drops the session copy holding the old mark.
    expect((await postJson("/home/seen", {}, { token: fan.token })).status).toBeLessThan(300);
    expect((await updatesOf(fan.token)).home).toBe(false);
  });

  it("a fan who follows many creators gets the same Home dot by walking the posts since the last visit", async () => {
    const { start, fan, followed, stranger } = await homeDotScene();
    // MANY_FOLLOWS quiet creators followed too (they post nothing).
    await followQuietCreators(fan.user.userId, MANY_FOLLOWS);
    const user = await env.DB.prepare("SELECT * FROM users WHERE id = ?").bind(fan.user.userId).first<UserRow>();
    expect(user!.following_count).toBe(MANY_FOLLOWS + 1);
    const at = (ms: number) => new Date(start.getTime() + ms);
    /** The dot read both ways (per author below MANY_FOLLOWS, walking the recent posts from it), last visit at `seen`. */
    const dot = async (seen: Date | null) => {
      const answers = [];
      for (const following_count of [1, user!.following_count]) {
        const { results, meta } = await updatesStatement(env.DB, {
          ...user!,
          following_count,
          home_seen_at: seen?.toISOString() ?? null,
        }).all<{ home: number }>();
        answers.push({ home: results[0]!.home === 1, rowsRead: meta.rows_read });
      }
      expect(answers[1]!.home, "both ways give the same answer").toBe(answers[0]!.home);
      return { home: answers[1]!.home, rowsRead: { byAuthors: answers[0]!.rowsRead, byRecent: answers[1]!.rowsRead } };
    };

    // The walk and its bound go through posts_recent; nothing scans a table.
    const { results: plan } = await updatesStatement(env.DB, user!, true).all<{ detail: string }>();
    const lines = plan.map((row) => row.detail);
    expect(lines.filter((line) => /posts_recent/.test(line)).length, lines.join("\n")).toBe(2);
    expect(
      lines.filter((line) => /^SCAN (p|f|posts|follows|users)\b/.test(line)),
      lines.join("\n"),
    ).toEqual([]);

    // Nothing new since sign-up: the walk reads almost nothing, where the per-author way seeks every followed creator.
    const quiet = await dot(null);
    expect(quiet.home).toBe(false);
    expect(quiet.rowsRead.byAuthors).toBeGreaterThan(MANY_FOLLOWS);
    expect(quiet.rowsRead.byRecent).toBeLessThan(20);
    expect((await updatesOf(fan.token)).home).toBe(false);

    await publish(stranger.user.userId, at(1000));
    stopClockAt(at(1000));
    expect((await dot(null)).home).toBe(false);
    await publish(followed.user.userId, at(2000));
    await publish(followed.user.userId, at(3_600_000)); // published an hour from now: not out yet
    expect((await dot(null)).home).toBe(false);
    stopClockAt(at(2000));
    expect((await dot(null)).home).toBe(true);
    expect((await dot(at(2000))).home).toBe(false);

    // More posts since the last visit than the fan follows creators: the walk stops at its bound, finds none of the
    // followed creator's, and the per-author seeks decide (his post at +2 s is newer than a visit at +1.5 s only).
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
       INSERT INTO posts (user_id, text, audience, price_cents, status, published_at, created_at) SELECT ?1, 'noise', 'everyone', 0, 'published', ?3, ?3 FROM n`,
    )
      .bind(stranger.user.userId, user!.following_count + 5, at(3000).toISOString())
      .run();
    stopClockAt(at(3000));
    expect((await dot(at(1500))).home).toBe(true);
    expect((await dot(at(2500))).home).toBe(false);
    expect((await dot(at(3000))).home).toBe(false);
    expect((await updatesOf(fan.token)).home).toBe(true);
  });

  it("counts unread notifications up to 100 and drops them when read", async () => {
    const fan = await createUser();
    const other = await createUser();
    expect((await postJson("/notifications/test", {}, { token: fan.token })).status).toBe(201);
    expect((await postJson("/notifications/test", {}, { token: fan.token })).status).toBe(201);
    expect((await updatesOf(fan.token)).notifications).toBe(2);
    expect((await updatesOf(other.token)).notifications).toBe(0);

    const read = await postJson("/notifications/read", {}, { token: fan.token });
    expect(await read.json()).toEqual({
      marked: 2,
      updates: { home: false, notifications: 0, messages: 0, balance: false },
    });
    expect((await updatesOf(fan.token)).notifications).toBe(0);

    const now = new Date().toISOString();
    await env.DB.batch(
      Array.from({ length: 150 }, () =>
        env.DB.prepare("INSERT INTO notifications (user_id, kind, created_at) VALUES (?, 'test', ?)").bind(
          fan.user.userId,
          now,
        ),
      ),
    );
    expect((await updatesOf(fan.token)).notifications).toBe(100);
  });

  it("counts unread messages over every conversation, capped like notifications", async () => {
    const fan = await createUser();
    const now = new Date().toISOString();
    for (const unread of [3, 0, 1, 0]) {
      const conversation = await env.DB.prepare("INSERT INTO conversations (created_at) VALUES (?) RETURNING id")
        .bind(now)
        .first<{ id: number }>();
      await env.DB.prepare("INSERT INTO conversation_members (conversation_id, user_id, unread_count) VALUES (?, ?, ?)")
        .bind(conversation!.id, fan.user.userId, unread)
        .run();
    }
    expect((await updatesOf(fan.token)).messages).toBe(4);
    const busy = await env.DB.prepare("INSERT INTO conversations (created_at) VALUES (?) RETURNING id")
      .bind(now)
      .first<{ id: number }>();
    await env.DB.prepare("INSERT INTO conversation_members (conversation_id, user_id, unread_count) VALUES (?, ?, 250)")
      .bind(busy!.id, fan.user.userId)
      .run();
    expect((await updatesOf(fan.token)).messages).toBe(100);
  });
});

describe("notifications", () => {
  it("lists only the caller's own, newest first, and pages with `before`", async () => {
    const fan = await createUser();
    const other = await createUser();
    for (let i = 0; i < 3; i++) await postJson("/notifications/test", {}, { token: fan.token });
    const mine = (await (await api("/notifications", { token: fan.token })).json()) as {
      notifications: { id: number; kind: string; read: boolean }[];
    };
    expect(mine.notifications.map((n) => n.kind)).toEqual(["test", "test", "test"]);
    expect(mine.notifications[0]!.id).toBeGreaterThan(mine.notifications[2]!.id);
    const older = (await (
      await api(`/notifications?before=${mine.notifications[0]!.id}`, { token: fan.token })
    ).json()) as { notifications: unknown[] };
    expect(older.notifications).toHaveLength(2);
    const theirs = (await (await api("/notifications", { token: other.token })).json()) as { notifications: unknown[] };
    expect(theirs.notifications).toEqual([]);
    expect((await api("/notifications?before=abc", { token: fan.token })).status).toBe(422);
    expect((await api("/notifications")).status).toBe(401);
  });

  it("limits test notifications to 5 per 10 minutes per account", async () => {
    const fan = await createUser();
    for (let i = 0; i < 5; i++)
      expect((await postJson("/notifications/test", {}, { token: fan.token })).status).toBe(201);
    const refused = await postJson("/notifications/test", {}, { token: fan.token });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM notifications WHERE user_id = ?")
        .bind(fan.user.userId)
        .first<{ n: number }>())!.n,
    ).toBe(5);
  });
});

describe("GET /api/searchUsers", () => {
  const search = async (term: string, ip = "198.51.100.1") => {
    const response = await api(`/searchUsers?searchTerm=${encodeURIComponent(term)}`, { ip });
    return {
      status: response.status,
      body: (await response.json()) as {
        results?: { users: { username: string; avatarUrl: string }[] };
        message?: string;
      },
    };
  };

  it("matches the start of any word of the username or name, in any case", async () => {
    const tag = `zq${Date.now().toString(36)}`;
    await createUser({ username: `${tag}.rivers`, name: "Mia Rivers" });
    await createUser({ username: `${tag}_other`, name: "Ölga Ström" });
    expect((await search(tag.toUpperCase())).body.results!.users.map((u) => u.username).sort()).toEqual([
      `${tag}.rivers`,
      `${tag}_other`,
    ]);
    expect((await search(`${tag}.riv`)).body.results!.users.map((u) => u.username)).toEqual([`${tag}.rivers`]);
    expect((await search(`${tag} olga`)).body.results!.users.map((u) => u.username)).toEqual([`${tag}_other`]);
    expect((await search(`${tag} ivers`)).body.results!.users).toEqual([]);
    expect((await search(`${tag}-nobody`)).body.results!.users).toEqual([]);
    // The name too, for the results to show it beside the handle.
    expect((await search(`${tag}.rivers`)).body.results!.users).toEqual([
      { username: `${tag}.rivers`, name: "Mia Rivers", avatarUrl: "" },
    ]);
  });

  it("follows renames and never answers more than 10", async () => {
    const tag = `zr${Date.now().toString(36)}`;
    for (let i = 0; i < 12; i++) await createUser({ username: `${tag}_${i}` });
    expect((await search(tag)).body.results!.users).toHaveLength(10);
    const renamed = await createUser({ username: `${tag}x_old` });
    await env.DB.prepare("UPDATE users SET username = ? WHERE id = ?").bind(`zz${tag}_new`, renamed.user.userId).run();
    expect((await search(`${tag}x`)).body.results!.users).toEqual([]);
    expect((await search(`zz${tag}`)).body.results!.users.map((u) => u.username)).toEqual([`zz${tag}_new`]);
  });

  it("refuses an empty or overlong term with a translated message, and survives query syntax", async () => {
    const empty = await api("/searchUsers?searchTerm=%20&lng=de", { ip: "198.51.100.2" });
    expect(empty.status).toBe(422);
    expect(((await empty.json()) as { errors: Record<string, string[]> }).errors.searchTerm).toEqual([
      "Gib einen Suchbegriff ein.",
    ]);
    expect((await api("/searchUsers", { ip: "198.51.100.2" })).status).toBe(422);
    expect((await search("x".repeat(65), "198.51.100.2")).status).toBe(422);
    for (const junk of ['"', "*", "a OR b", "NEAR(a b)", "username:x", "^", "'; DROP TABLE users; --", "🙂"]) {
      const { status } = await search(junk, "198.51.100.2");
      expect(status, junk).toBe(200);
    }
  });

  it("is rate limited per address, per clock minute", async () => {
    // The limit counts per clock minute (windows start at whole minutes): 59 s into one, the next starts 1 s later.
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    stopClockAt(new Date(minute + 59_000));
    for (let i = 0; i < 120; i++) expect((await search("abc", "198.51.100.9")).status).toBe(200);
    expect((await search("abc", "198.51.100.9")).status).toBe(429);
    expect((await search("abc", "198.51.100.10")).status).toBe(200);
    stopClockAt(new Date(minute + 59_999));
    expect((await search("abc", "198.51.100.9")).status).toBe(429);
    stopClockAt(new Date(minute + 60_000));
    expect((await search("abc", "198.51.100.9")).status).toBe(200);
  }, 45_000);
});

describe("GET /api/suggestedProfiles", () => {
  const suggestions = async (token?: string) =>
    (await (await api("/suggestedProfiles", { token })).json()) as {
      isExist: boolean;
      suggestedProfiles: { username: string; fullname: string; avatarUrl: string }[];
    };

  it("says there is nothing when there are no creators", async () => {
    const fan = await createUser();
    expect(await suggestions(fan.token)).toEqual({ isExist: false, suggestedProfiles: [] });
  });

  it("ranks creators by followers and leaves out the user and whom they follow", async () => {
    const fan = await createUser();
    const popular = await makeCreator({ name: "Popular One" });
    const rising = await makeCreator();
    const followed = await makeCreator();
    const me = await makeCreator();
    await createUser(); // a member, never suggested
    for (const creator of [popular, popular, rising])
      await follow((await createUser()).user.userId, creator.user.userId);
    await follow(fan.user.userId, followed.user.userId);

    const forFan = await suggestions(fan.token);
    expect(forFan.isExist).toBe(true);
    expect(forFan.suggestedProfiles.map((p) => p.username)).toEqual([
      popular.user.username,
      rising.user.username,
      me.user.username,
    ]);
    expect(forFan.suggestedProfiles[0]).toEqual({
      username: popular.user.username,
      fullname: "Popular One",
      avatarUrl: "",
    });
    expect((await suggestions(me.token)).suggestedProfiles.map((p) => p.username)).not.toContain(me.user.username);
  });
});

describe("POST /api/home/seen", () => {
  it("clears the Home dot for the caller only, and needs a session", async () => {
    const fan = await createUser();
    const other = await createUser();
    const creator = await makeCreator();
    await follow(fan.user.userId, creator.user.userId);
    await follow(other.user.userId, creator.user.userId);
    const start = new Date();
    await publish(creator.user.userId, new Date(start.getTime() + 1000));
    stopClockAt(new Date(start.getTime() + 1000));
    const seen = await postJson("/home/seen", {}, { token: fan.token });
    expect(((await seen.json()) as { updates: Updates }).updates.home).toBe(false);
    expect((await updatesOf(fan.token)).home).toBe(false);
    expect((await updatesOf(other.token)).home).toBe(true);
    expect((await postJson("/home/seen", {})).status).toBe(401);
  });

  it("with upTo, keeps the dot lit for a post published after the screen's newest one, and never moves the mark back", async () => {
    const fan = await createUser();
    const creator = await makeCreator();
    await follow(fan.user.userId, creator.user.userId);
    const start = new Date();
    const shown = new Date(start.getTime() + 1000);
    await publish(creator.user.userId, shown);
    await publish(creator.user.userId, new Date(start.getTime() + 2000)); // came in while the screen was loading
    stopClockAt(new Date(start.getTime() + 3000));
    const seen = await postJson("/home/seen", { upTo: shown.toISOString() }, { token: fan.token });
    expect(seen.status).toBe(200);
    expect(((await seen.json()) as { updates: Updates }).updates.home).toBe(true);
    expect((await updatesOf(fan.token)).home).toBe(true);

    // Seen up to the newest: cleared; an older screen's mark then changes nothing.
    expect(
      (await postJson("/home/seen", { upTo: new Date(start.getTime() + 2000).toISOString() }, { token: fan.token }))
        .status,
    ).toBe(200);
    expect((await updatesOf(fan.token)).home).toBe(false);
    const stale = await postJson("/home/seen", { upTo: shown.toISOString() }, { token: fan.token });
    expect(((await stale.json()) as { updates: Updates }).updates.home).toBe(false);
    expect((await updatesOf(fan.token)).home).toBe(false);

    // A mark in the future is now at most: a post published later still lights the dot.
    expect((await postJson("/home/seen", { upTo: "2999-01-01T00:00:00.000Z" }, { token: fan.token })).status).toBe(200);
    await publish(creator.user.userId, new Date(start.getTime() + 4000));
    stopClockAt(new Date(start.getTime() + 4000));
    expect((await updatesOf(fan.token)).home).toBe(true);

    expect((await postJson("/home/seen", { upTo: "yesterday" }, { token: fan.token })).status).toBe(422);
    expect((await updatesOf(fan.token)).home).toBe(true);
  });
});
