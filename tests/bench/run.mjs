#!/usr/bin/env node
// `npm run bench`: figures, not assertions. Starts the production build under wrangler dev on loopback with
// its own state, then measures
//   1. GET /api/me throughput against GET /api/health (a trivial JSON route on the same Worker), same run;
//   2. sign-in latency (POST /api/login, argon2id verification included).
// Machines here are small and noisy: read the ratio first, the absolute numbers second.
import { startDevServer } from "../support/dev-server.mjs";

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 4000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? 40);

async function throughput(url, headers) {
  let done = 0;
  let failed = 0;
  const deadline = performance.now() + DURATION_MS;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
        if (response.ok) done++;
        else failed++;
      }
    }),
  );
  return { perSecond: done / ((performance.now() - started) / 1000), failed };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const server = await startDevServer({ stateDir: "tests/bench/.state", vars: { RATE_LIMIT_SCALE: "100000" } });
try {
  const person = { username: `bench_${Date.now().toString(36)}`, name: "Bench", email: `bench_${Date.now()}@example.test`, password: "a long bench passphrase", dateOfBirth: "1990-01-01", accountType: "other" };
  const signup = await fetch(`${server.baseURL}/api/signup`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(person) });
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${await signup.text()}`);
  const { token } = await signup.json();

  // Warm-up, then alternate the two routes twice so that drift on a noisy machine hits both.
  await throughput(`${server.baseURL}/api/health`, {});
  const rounds = [];
  for (let round = 0; round < 2; round++) {
    rounds.push({ health: await throughput(`${server.baseURL}/api/health`, {}), me: await throughput(`${server.baseURL}/api/me`, { Authorization: `Bearer ${token}` }) });
  }
  const health = rounds.reduce((sum, r) => sum + r.health.perSecond, 0) / rounds.length;
  const me = rounds.reduce((sum, r) => sum + r.me.perSecond, 0) / rounds.length;
  const failures = rounds.reduce((sum, r) => sum + r.health.failed + r.me.failed, 0);

  const latencies = [];
  for (let i = 0; i < SIGN_INS; i++) {
    const started = performance.now();
    const response = await fetch(`${server.baseURL}/api/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ login: person.email, password: person.password }) });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`sign-in failed: ${response.status}`);
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);

  console.log(`\nBenchmarks (${CONCURRENCY} concurrent clients, ${DURATION_MS} ms per measurement, loopback, wrangler dev)\n`);
  console.log(`GET /api/health (reference)   ${health.toFixed(0).padStart(7)} req/s`);
  console.log(`GET /api/me                   ${me.toFixed(0).padStart(7)} req/s   = ${((me / health) * 100).toFixed(0)}% of the reference`);
  console.log(`failed requests               ${String(failures).padStart(7)}`);
  console.log(`POST /api/login latency       p50 ${percentile(latencies, 50).toFixed(1)} ms   p95 ${percentile(latencies, 95).toFixed(1)} ms   (n=${SIGN_INS})`);
} finally {
  server.stop();
}
