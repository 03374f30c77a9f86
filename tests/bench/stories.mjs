// The stories figures, over loopback against the local server (figures, no assertions): GET /api/stories
// (the stories bar, one statement) for a fan following 1,000 creators with live stories, p50/p95, against a fan
// following 10 and against GET /api/health in the same run; among 40,000 stories of others (creators the fan does
// not follow, and expired ones); and the bar's EXPLAIN QUERY PLAN (tests/bench/worker/count-d1.ts), which must not scan.
import { randomBytes } from "node:crypto";
import { personSql, seed } from "./chat.mjs";
import { latencies, percentile } from "./measure.mjs";

const REQUESTS = Number(process.env.BENCH_STORIES_REQUESTS ?? 200);
const FOLLOWS = Number(process.env.BENCH_STORIES_FOLLOWS ?? 1000);
const OTHERS = Number(process.env.BENCH_STORIES_OTHERS ?? 40_000);

export async function benchStories(baseURL, stateDir) {
  const tag = randomBytes(4).toString("hex");
  const heavy = { username: `sb_heavy_${tag}`, token: randomBytes(32).toString("base64url") };
  const light = { username: `sb_light_${tag}`, token: randomBytes(32).toString("base64url") };
  const now = Date.now();
  const iso = (offsetMs) => new Date(now + offsetMs).toISOString();
  // Creators c1..cN (N = FOLLOWS + 200), each with two live stories and one expired; 200 of them unfollowed. The
  // heavy fan follows the first FOLLOWS and has seen the first story of every tenth; the light fan follows 10.
  // OTHERS more stories belong to the unfollowed creators (expired and live), to show the bar reads only its own.
  const creators = FOLLOWS + 200;
  await seed(
    baseURL,
    stateDir,
    `${personSql(heavy.username, "member", heavy.token)}
     ${personSql(light.username, "member", light.token)}
     WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${creators})
     INSERT INTO users (username, name, email, email_verified_at, password_hash, date_of_birth, account_type, role, monetization_enabled, created_at, updated_at)
       SELECT 'sb_c' || n || '_${tag}', 'Creator ' || n, 'sb_c' || n || '_${tag}@example.test', '${iso(0)}', 'x', '1990-01-01', 'other', 'creator', 1, '${iso(0)}', '${iso(0)}' FROM seq;
     INSERT INTO follows (follower_id, creator_id, created_at)
       SELECT (SELECT id FROM users WHERE username = '${heavy.username}'), id, '${iso(0)}' FROM users
       WHERE username LIKE 'sb_c%_${tag}' AND CAST(substr(username, 5, instr(username, '_${tag}') - 5) AS INTEGER) <= ${FOLLOWS};
     INSERT INTO follows (follower_id, creator_id, created_at)
       SELECT (SELECT id FROM users WHERE username = '${light.username}'), id, '${iso(0)}' FROM users
       WHERE username LIKE 'sb_c%_${tag}' AND CAST(substr(username, 5, instr(username, '_${tag}') - 5) AS INTEGER) <= 10;
     WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${creators * 3 + OTHERS})
     INSERT INTO media (user_id, purpose, kind, status, object_key, content_type, size_bytes, created_at)
       SELECT (SELECT id FROM users WHERE username = 'sb_c' || (CASE WHEN n <= ${creators * 3} THEN (n - 1) / 3 + 1 ELSE ${FOLLOWS} + 1 + n % 200 END) || '_${tag}'),
              'post', 'image', 'ready', 'stories/${tag}' || printf('%024x', n) || '.png', 'image/png', 1, '${iso(0)}'
       FROM seq;
     INSERT INTO stories (creator_id, media_id, text, audience, created_at, expires_at)
       SELECT m.user_id, m.id, '', 'everyone', '${iso(-3_600_000)}',
              CASE WHEN m.id % 3 = 0 THEN '${iso(-60_000)}' ELSE '${iso(20 * 3_600_000)}' END
       FROM media m WHERE m.object_key LIKE 'stories/${tag}%';
     INSERT INTO story_views (story_id, viewer_id, viewed_at)
       SELECT st.id, (SELECT id FROM users WHERE username = '${heavy.username}'), '${iso(0)}'
       FROM stories st JOIN users u ON u.id = st.creator_id
       WHERE u.username LIKE 'sb_c%_${tag}' AND st.id % 10 = 0;`,
  );
  const heavyHeaders = { Authorization: `Bearer ${heavy.token}` };
  const lightHeaders = { Authorization: `Bearer ${light.token}` };
  const bar = await (await fetch(`${baseURL}/api/stories`, { headers: heavyHeaders })).json();
  const lightBar = await (await fetch(`${baseURL}/api/stories`, { headers: lightHeaders })).json();

  await latencies(`${baseURL}/api/stories`, heavyHeaders, 20);
  await latencies(`${baseURL}/api/health`, {}, 20);
  const heavyTimes = [];
  const lightTimes = [];
  const health = [];
  // Alternated in halves so that drift on a noisy machine hits all three.
  for (let half = 0; half < 2; half++) {
    health.push(...(await latencies(`${baseURL}/api/health`, {}, REQUESTS / 2)));
    lightTimes.push(...(await latencies(`${baseURL}/api/stories`, lightHeaders, REQUESTS / 2)));
    heavyTimes.push(...(await latencies(`${baseURL}/api/stories`, heavyHeaders, REQUESTS / 2)));
  }
  for (const list of [heavyTimes, lightTimes, health]) list.sort((a, b) => a - b);
  const [h50, h95] = [percentile(heavyTimes, 50), percentile(heavyTimes, 95)];
  const [l50, l95] = [percentile(lightTimes, 50), percentile(lightTimes, 95)];
  const [r50, r95] = [percentile(health, 50), percentile(health, 95)];

  console.log(
    `\nStories bar: GET /api/stories (n=${REQUESTS}, one at a time; ${creators * 3 + OTHERS} stories seeded, a third expired)`,
  );
  console.log(
    `fan following ${FOLLOWS} creators      p50 ${h50.toFixed(1)} ms   p95 ${h95.toFixed(1)} ms   (${bar.creators.length} shown, ${bar.creators.filter((c) => c.unseen > 0).length} with unseen stories)`,
  );
  console.log(
    `fan following 10 creators        p50 ${l50.toFixed(1)} ms   p95 ${l95.toFixed(1)} ms   (${lightBar.creators.length} shown) → ${FOLLOWS} follows cost ${(h95 / l95).toFixed(1)}× 10 at p95`,
  );
  console.log(
    `GET /api/health (reference)      p50 ${r50.toFixed(1)} ms   p95 ${r95.toFixed(1)} ms   → the ${FOLLOWS}-follow bar p95 = ${(h95 / r95).toFixed(1)}× the reference`,
  );

  const heavyId = (await (await fetch(`${baseURL}/api/me`, { headers: heavyHeaders })).json()).userId;
  const { plan } = await (await fetch(`${baseURL}/__bench/stories-plan?viewer=${heavyId}`)).json();
  const depth = new Map([[0, 0]]);
  console.log("EXPLAIN QUERY PLAN of the stories bar:");
  for (const row of plan) {
    depth.set(row.id, (depth.get(row.parent) ?? 0) + 1);
    console.log(`  ${"  ".repeat(depth.get(row.id) - 1)}${row.detail}`);
  }
  const scans = plan.filter((row) => /^SCAN (st|stories|f|follows|o|users|v|story_views)\b/.test(row.detail));
  console.log(
    scans.length === 0
      ? "  → no full scan of a large table"
      : `  → FULL SCANS: ${scans.map((s) => s.detail).join("; ")}`,
  );
}
