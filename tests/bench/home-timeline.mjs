// The /home figures of QUALITY.md: the server render of the first timeline page (cookie-authenticated GET /home of
// the production build, the whole HTML read), its p50/p95 against GET /api/health measured the same way in the
// same run, the D1 statements per request (counted by the benchmark's Worker, tests/bench/worker/count-d1.ts), and
// EXPLAIN QUERY PLAN of the timeline query.
import { latencies, percentile } from "./measure.mjs";

const HOME_REQUESTS = Number(process.env.BENCH_HOME_REQUESTS ?? 200);

const statementsSoFar = async (baseURL) => (await (await fetch(`${baseURL}/__bench/d1-statements`)).json()).statements;

export async function benchHomeTimeline(baseURL, { token, userId }) {
  const cookie = { Cookie: `__Host-session=${token}` };
  const page = await fetch(`${baseURL}/home`, { headers: cookie });
  const html = await page.text();
  const shown = (html.match(/data-post-id=/g) ?? []).length;
  if (page.status !== 200 || shown === 0)
    throw new Error(`/home did not render a timeline (${page.status}, ${shown} posts)`);

  await latencies(`${baseURL}/home`, cookie, 20);
  await latencies(`${baseURL}/api/health`, {}, 20);
  // Alternate the two in halves so that drift on a noisy machine hits both.
  const home = [];
  const health = [];
  const json = [];
  let statements = 0;
  for (let half = 0; half < 2; half++) {
    health.push(...(await latencies(`${baseURL}/api/health`, {}, HOME_REQUESTS / 2)));
    json.push(...(await latencies(`${baseURL}/api/timeline`, { Authorization: `Bearer ${token}` }, HOME_REQUESTS / 2)));
    const before = await statementsSoFar(baseURL);
    home.push(...(await latencies(`${baseURL}/home`, cookie, HOME_REQUESTS / 2)));
    statements += (await statementsSoFar(baseURL)) - before;
  }
  home.sort((a, b) => a - b);
  health.sort((a, b) => a - b);
  json.sort((a, b) => a - b);
  const [p50, p95] = [percentile(home, 50), percentile(home, 95)];
  const [r50, r95] = [percentile(health, 50), percentile(health, 95)];

  console.log(
    `\n/home server render, first timeline page (${shown} posts; 10,000 users, 200,000 posts, 500,000 follows; n=${HOME_REQUESTS}, one at a time)`,
  );
  console.log(
    `GET /home                     p50 ${p50.toFixed(1)} ms   p95 ${p95.toFixed(1)} ms   (target p95 ≤ 50 ms)`,
  );
  console.log(
    `GET /api/health (reference)   p50 ${r50.toFixed(1)} ms   p95 ${r95.toFixed(1)} ms   → /home p95 = ${(p95 / r95).toFixed(1)}× the reference`,
  );
  console.log(
    `GET /api/timeline (same page) p50 ${percentile(json, 50).toFixed(1)} ms   p95 ${percentile(json, 95).toFixed(1)} ms   (the data without the page render)`,
  );
  console.log(
    `D1 statements per /home       ${(statements / HOME_REQUESTS).toFixed(2)}   (target ≤ 5; session, updates summary, timeline page, its media)`,
  );

  const { plan } = await (await fetch(`${baseURL}/__bench/timeline-plan?viewer=${userId}`)).json();
  const depth = new Map([[0, 0]]);
  console.log("EXPLAIN QUERY PLAN of the timeline's first page:");
  for (const row of plan) {
    depth.set(row.id, (depth.get(row.parent) ?? 0) + 1);
    console.log(`  ${"  ".repeat(depth.get(row.id) - 1)}${row.detail}`);
  }
  const scans = plan.filter((row) => /^SCAN (p|posts|follows|f|users|u|media|m)\b/.test(row.detail));
  console.log(
    scans.length === 0
      ? "  → no full scan of a large table"
      : `  → FULL SCANS: ${scans.map((s) => s.detail).join("; ")}`,
  );
}
