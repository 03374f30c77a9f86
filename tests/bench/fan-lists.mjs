// The fan lists figures, over loopback against the local server (figures, no assertions): a custom list of 10,000
// fans paged through to its end (GET /api/lists/custom:<id>/fans, 20 a page: what each fan spent and when they were
// last active) and the top spenders of the same 10,000 (ordered by spend), p50/p95 per page, against the reference
// measured in the same run, page for page over the same fans: Dashboard → Fans (GET /api/me/fans, the keyset page
// of subscribers that existed before lists). A search of the list is timed too.
import { randomBytes } from "node:crypto";
import { personSql, seed } from "./chat.mjs";
import { percentile } from "./measure.mjs";

const FANS = Number(process.env.BENCH_LIST_FANS ?? 10_000);

/** Every page of `path` (a keyset-paged answer with `nextCursor`), one at a time: each page's time in ms. */
async function pageThrough(baseURL, path, headers, maxPages = Infinity) {
  const times = [];
  let cursor = null;
  let fans = 0;
  do {
    const separator = path.includes("?") ? "&" : "?";
    const url = `${baseURL}${path}${cursor ? `${separator}cursor=${encodeURIComponent(cursor)}` : ""}`;
    const started = performance.now();
    const response = await fetch(url, { headers });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${body.slice(0, 200)}`);
    times.push(performance.now() - started);
    const page = JSON.parse(body);
    fans += page.fans.length;
    cursor = page.nextCursor;
  } while (cursor && times.length < maxPages);
  return { times: times.sort((a, b) => a - b), fans };
}

export async function benchFanLists(baseURL, stateDir) {
  const tag = randomBytes(4).toString("hex");
  const creator = { username: `fl_star_${tag}`, token: randomBytes(32).toString("base64url") };
  const now = new Date().toISOString();
  const fansOf = `username LIKE 'fl_f%_${tag}'`;
  const creatorId = `(SELECT id FROM users WHERE username = '${creator.username}')`;
  // FANS members, each following and subscribed to the creator, in one custom list, each with a tip of their own
  // amount (a transfer each: a paid record names its transfer) and a session last active at its own time.
  await seed(
    baseURL,
    stateDir,
    `${personSql(creator.username, "creator", creator.token)}
     WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${FANS})
     INSERT INTO users (username, name, email, email_verified_at, password_hash, date_of_birth, account_type, created_at, updated_at)
       SELECT 'fl_f' || n || '_${tag}', 'List fan ' || n, 'fl_f' || n || '_${tag}@example.test', '${now}', 'x', '1990-01-01', 'other', '${now}', '${now}' FROM seq;
     INSERT INTO follows (follower_id, creator_id, created_at) SELECT id, ${creatorId}, '${now}' FROM users WHERE ${fansOf};
     INSERT INTO subscriptions (fan_id, creator_id, period, price_cents, status, started_at, current_period_end)
       SELECT id, ${creatorId}, 'month', 500, 'active', strftime('%Y-%m-%dT%H:%M:%fZ', '${now}', '-' || (id % 1000) || ' minutes'), '2099-01-01T00:00:00.000Z'
       FROM users WHERE ${fansOf};
     INSERT INTO fan_lists (creator_id, name, created_at) VALUES (${creatorId}, 'Everyone', '${now}');
     INSERT INTO fan_list_members (list_id, fan_id, added_at)
       SELECT (SELECT id FROM fan_lists WHERE creator_id = ${creatorId}), id, '${now}' FROM users WHERE ${fansOf};
     INSERT INTO ledger_transfers (ref, kind, created_at) SELECT 'fl_${tag}_' || id, 'tip', '${now}' FROM users WHERE ${fansOf};
     INSERT INTO payments (user_id, kind, amount_cents, status, creator_id, idempotency_key, request_hash, transfer_id, created_at, updated_at)
       SELECT u.id, 'tip', 100 + u.id % 997, 'succeeded', ${creatorId}, 'u:fl' || u.id, 'h', t.id, '${now}', '${now}'
       FROM users u JOIN ledger_transfers t ON t.ref = 'fl_${tag}_' || u.id WHERE u.${fansOf};
     INSERT INTO sessions (user_id, token_hash, created_at, expires_at, last_active_at)
       SELECT id, 'fl_${tag}_' || id, '${now}', '2099-01-01T00:00:00.000Z', strftime('%Y-%m-%dT%H:%M:%fZ', '${now}', '-' || (id % 500) || ' hours')
       FROM users WHERE ${fansOf};`,
  );
  const headers = { Authorization: `Bearer ${creator.token}` };
  const { lists } = await (await fetch(`${baseURL}/api/lists`, { headers })).json();
  const custom = lists.find((list) => list.kind === "custom");

  // Warmed, then alternated in halves so that drift on a noisy machine hits both alike.
  await pageThrough(baseURL, `/api/lists/${custom.ref}/fans`, headers, 10);
  await pageThrough(baseURL, "/api/me/fans", headers, 10);
  const listTimes = [];
  const spenderTimes = [];
  const referenceTimes = [];
  let listed = 0;
  let spenders = 0;
  let reference = 0;
  for (let half = 0; half < 2; half++) {
    const ofList = await pageThrough(baseURL, `/api/lists/${custom.ref}/fans`, headers);
    const ofReference = await pageThrough(baseURL, "/api/me/fans", headers);
    const ofSpenders = await pageThrough(baseURL, "/api/lists/top-spenders:all/fans", headers, 50);
    listTimes.push(...ofList.times);
    referenceTimes.push(...ofReference.times);
    spenderTimes.push(...ofSpenders.times);
    [listed, reference, spenders] = [ofList.fans, ofReference.fans, ofSpenders.fans];
  }
  const searched = await pageThrough(baseURL, `/api/lists/${custom.ref}/fans?q=fan%20999`, headers);
  for (const list of [listTimes, spenderTimes, referenceTimes]) list.sort((a, b) => a - b);
  const p = (times, at) => percentile(times, at).toFixed(1);
  const r95 = percentile(referenceTimes, 95);

  console.log(
    `\nFan lists: ${FANS} fans in one custom list (counted ${custom.count} by GET /api/lists), paged 20 at a time`,
  );
  console.log(
    `custom list, every page         p50 ${p(listTimes, 50)} ms   p95 ${p(listTimes, 95)} ms   (${listTimes.length} pages, ${listed} fans a pass) → ${(percentile(listTimes, 95) / r95).toFixed(2)}× the reference at p95`,
  );
  console.log(
    `top spenders, first 50 pages    p50 ${p(spenderTimes, 50)} ms   p95 ${p(spenderTimes, 95)} ms   (${spenders} fans a pass, ordered by spend) → ${(percentile(spenderTimes, 95) / r95).toFixed(2)}× the reference at p95`,
  );
  console.log(
    `GET /api/me/fans (reference)    p50 ${p(referenceTimes, 50)} ms   p95 ${p(referenceTimes, 95)} ms   (${referenceTimes.length} pages, ${reference} subscribers a pass)`,
  );
  console.log(
    `a search ("fan 999")            ${searched.times.length} page(s), ${searched.fans} fans, slowest ${searched.times.at(-1).toFixed(1)} ms`,
  );
}
