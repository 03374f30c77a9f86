// Latency under load with autocannon (figures, no assertions): 50 connections kept busy for BENCH_LOAD_SECONDS
// (20 s) each against GET /api/updates (Authorization: Bearer), the signed-in server render of GET /home (the
// session cookie) and GET /api/health, a trivial JSON route on the same Worker, as the reference of the same run.
// Per route: requests per second, p50 and p99 latency, errors (connection errors and timeouts) and answers other
// than 2xx. Target: p99 ≤ 250 ms, no errors. autocannon runs in this process, on the same small machine as the
// local server (Miniflare): the reference says how much of a route's figure is the machine.
import autocannon from "autocannon";

const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 20);
const CONNECTIONS = 50;

export async function benchLoad(baseURL, { token }) {
  const routes = [
    ["GET /api/health (reference)", "/api/health", {}],
    ["GET /api/updates", "/api/updates", { Authorization: `Bearer ${token}` }],
    ["GET /home (cookie)", "/home", { Cookie: `__Host-session=${token}` }],
  ];
  // A signed-out /home would be a redirect to /login, which autocannon would count as fast non-2xx answers.
  const home = await fetch(`${baseURL}/home`, { headers: { Cookie: `__Host-session=${token}` }, redirect: "manual" });
  await home.arrayBuffer();
  if (home.status !== 200) throw new Error(`GET /home with the session cookie answered ${home.status}`);

  const results = [];
  for (const [label, path, headers] of routes) {
    const result = await autocannon({ url: `${baseURL}${path}`, connections: CONNECTIONS, duration: SECONDS, headers });
    results.push([label, result]);
  }
  console.log(
    `\nUnder load (autocannon: ${CONNECTIONS} connections, ${SECONDS} s per route, loopback, Miniflare; target p99 ≤ 250 ms, 0 errors)\n`,
  );
  for (const [label, r] of results) {
    console.log(
      `${label.padEnd(30)} ${r.requests.average.toFixed(0).padStart(6)} req/s   p50 ${String(r.latency.p50).padStart(5)} ms   p99 ${String(r.latency.p99).padStart(5)} ms   ` +
        `errors ${r.errors} (timeouts ${r.timeouts})   non-2xx ${r.non2xx}   (${r.requests.total} requests)`,
    );
  }
}
