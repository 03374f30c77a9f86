// D1 round trips per request on each hot path: the Worker counts every statement and every round trip
// (a batch of several statements is one trip) in the benchmark's Worker (tests/bench/worker/count-d1.ts), and this asks for the
// totals before and after N requests of one kind, one at a time. In production each round trip is a trip to the
// database (its primary for writes), so this count is what the latency of a hot path is made of.
//   session      GET /api/me                          (the session alone)
//   updates      GET /api/updates                     (the badges every open tab polls or is nudged to fetch)
//   timeline     GET /api/timeline                    (the first page)
//   home         GET /home                            (the page: session, updates, timeline, stories tray…)
//   profile      GET /api/users/{creator}, and the page /{creator}
//   tip          POST /api/users/{creator}/tips       (a new idempotency key each time)
//   message      POST /api/conversations/{id}/messages
//   thread       GET /messages/{id}                   (the page: a conversation with its newest messages)
//   post         GET /post/{id}                       (the page: a post with its comments)
//   stories bar  GET /api/stories
//   conversations GET /api/conversations
// The "before" column is tests/bench/round-trips-before.json, a baseline measured at commit 4ee09bd;
// BENCH_ROUND_TRIPS_BASELINE=<file.json> compares with another run's JSON instead (BENCH_ROUND_TRIPS_OUT writes
// this run's), so a change's effect is shown side by side.
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { personSql, seed } from "./chat.mjs";

const REPEAT = Number(process.env.BENCH_ROUND_TRIPS_REPEAT ?? 20);

const counts = async (baseURL) => await (await fetch(`${baseURL}/__bench/d1-statements`)).json();

export async function benchRoundTrips(baseURL, stateDir) {
  const tag = randomBytes(4).toString("hex");
  const fan = { username: `rt_fan_${tag}`, token: randomBytes(32).toString("base64url") };
  const creator = { username: `rt_cre_${tag}`, token: randomBytes(32).toString("base64url") };
  const now = new Date().toISOString();
  const id = (username) => `(SELECT id FROM users WHERE username = '${username}')`;
  // The fan follows and subscribes to the creator (25 posts, 2 live stories), holds $1,000, and they have a
  // conversation; the creator's plan is free of per-message prices.
  await seed(
    baseURL,
    stateDir,
    `${personSql(fan.username, "member", fan.token)}
     ${personSql(creator.username, "creator", creator.token)}
     INSERT INTO follows (follower_id, creator_id, created_at) VALUES (${id(fan.username)}, ${id(creator.username)}, '${now}');
     WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 25)
     INSERT INTO posts (user_id, text, audience, price_cents, published_at, created_at)
     SELECT ${id(creator.username)}, 'Round trip post ' || i, 'everyone', 0, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || i || ' minutes'), '${now}' FROM n;
     INSERT OR IGNORE INTO ledger_accounts (kind, user_id) VALUES ('wallet', ${id(fan.username)});
     INSERT INTO ledger_transfers (ref, kind, memo, created_at) VALUES ('rt-seed-${tag}', 'top_up', 'bench seed', '${now}');
     INSERT INTO ledger_entries (transfer_id, account_id, amount_cents) VALUES ((SELECT id FROM ledger_transfers WHERE ref = 'rt-seed-${tag}'), 2, -100000);
     INSERT INTO ledger_entries (transfer_id, account_id, amount_cents) VALUES ((SELECT id FROM ledger_transfers WHERE ref = 'rt-seed-${tag}'), (SELECT id FROM ledger_accounts WHERE kind = 'wallet' AND user_id = ${id(fan.username)}), 100000);
     UPDATE ledger_transfers SET closed = 1 WHERE ref = 'rt-seed-${tag}';
     INSERT INTO payments (user_id, kind, amount_cents, status, provider, idempotency_key, request_hash, transfer_id, created_at, updated_at)
       VALUES (${id(fan.username)}, 'top_up', 100000, 'succeeded', 'sandbox', 's:rt-seed', 'seed', (SELECT id FROM ledger_transfers WHERE ref = 'rt-seed-${tag}'), '${now}', '${now}');`,
  );
  const bearer = { Authorization: `Bearer ${fan.token}` };
  const cookie = { Cookie: `__Host-session=${fan.token}` };
  const json = { ...bearer, "Content-Type": "application/json" };
  const opened = await fetch(`${baseURL}/api/conversations`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ username: creator.username }),
  });
  if (!opened.ok) throw new Error(`conversation: ${opened.status} ${await opened.text()}`);
  const conversation = await opened.json();
  const [firstPost] = (await (await fetch(`${baseURL}/api/timeline`, { headers: bearer })).json()).posts;

  const paths = [
    ["session", "GET /api/me", () => fetch(`${baseURL}/api/me`, { headers: bearer })],
    ["updates", "GET /api/updates", () => fetch(`${baseURL}/api/updates`, { headers: bearer })],
    ["timeline", "GET /api/timeline", () => fetch(`${baseURL}/api/timeline`, { headers: bearer })],
    ["home", "GET /home (page)", () => fetch(`${baseURL}/home`, { headers: cookie })],
    [
      "profile",
      "GET /api/users/{creator}",
      () => fetch(`${baseURL}/api/users/${creator.username}`, { headers: bearer }),
    ],
    ["profilePage", "GET /{creator} (page)", () => fetch(`${baseURL}/${creator.username}`, { headers: cookie })],
    [
      "tip",
      "POST /api/users/{creator}/tips",
      () =>
        fetch(`${baseURL}/api/users/${creator.username}/tips`, {
          method: "POST",
          headers: json,
          body: JSON.stringify({ amountCents: 100, idempotencyKey: randomUUID() }),
        }),
    ],
    [
      "message",
      "POST /api/conversations/{id}/messages",
      () =>
        fetch(`${baseURL}/api/conversations/${conversation.id}/messages`, {
          method: "POST",
          headers: json,
          body: JSON.stringify({ clientId: randomUUID(), text: "Round trip" }),
        }),
    ],
    ["thread", "GET /messages/{id} (page)", () => fetch(`${baseURL}/messages/${conversation.id}`, { headers: cookie })],
    ["post", "GET /post/{id} (page)", () => fetch(`${baseURL}/post/${firstPost.id}`, { headers: cookie })],
    ["stories", "GET /api/stories", () => fetch(`${baseURL}/api/stories`, { headers: bearer })],
    ["conversations", "GET /api/conversations", () => fetch(`${baseURL}/api/conversations`, { headers: bearer })],
  ];
  const figures = {};
  for (const [key, , request] of paths) {
    const warm = await request();
    await warm.arrayBuffer();
    if (!warm.ok) throw new Error(`${key}: ${warm.status}`);
    const before = await counts(baseURL);
    for (let i = 0; i < REPEAT; i++) {
      const response = await request();
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${key}: ${response.status}`);
    }
    const after = await counts(baseURL);
    figures[key] = {
      roundTrips: (after.roundTrips - before.roundTrips) / REPEAT,
      statements: (after.statements - before.statements) / REPEAT,
    };
  }
  const baselineFile = process.env.BENCH_ROUND_TRIPS_BASELINE ?? "tests/bench/round-trips-before.json";
  const baseline = baselineFile && existsSync(baselineFile) ? JSON.parse(readFileSync(baselineFile, "utf8")) : null;
  if (process.env.BENCH_ROUND_TRIPS_OUT)
    writeFileSync(process.env.BENCH_ROUND_TRIPS_OUT, JSON.stringify(figures, null, 2));

  console.log(`\nD1 per request on the hot paths (${REPEAT} requests each, one at a time; a batch is one round trip)`);
  const column = (f) =>
    f
      ? `${f.roundTrips.toFixed(1).padStart(4)} trips ${f.statements.toFixed(1).padStart(5)} statements`
      : "".padStart(26);
  console.log(`${"".padEnd(40)}${baseline ? `${"before".padEnd(30)}now` : "now"}`);
  for (const [key, label] of paths)
    console.log(`${label.padEnd(40)}${baseline ? `${column(baseline[key])}    ` : ""}${column(figures[key])}`);
  return figures;
}
