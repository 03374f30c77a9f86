// The push figure, over loopback against the local server (figures, no assertions): a creator with
// BENCH_PUSH_DEVICES followers, each with one device that turned push on, publishes a post. Measured: the time from
// the POST until the last encrypted push reached a push service (a Node server on 127.0.0.1 standing in for FCM
// and Mozilla's), the pushes it received, and the work the Worker's Queue consumer did for them: its D1 statements
// (counted by the Worker itself, tests/bench/worker/count-d1.ts) and its subrequests (one fetch per push; a consumer run
// takes at most max_batch_size messages, wrangler.toml, so its subrequests stay far under the platform's limit).
// All devices share one key pair (the encryption per push is the same work whatever the keys).
import { createECDH, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { personSql, seed } from "./chat.mjs";

const DEVICES = Number(process.env.BENCH_PUSH_DEVICES ?? 1000);
const NOW = new Date().toISOString();

/** A push service that takes everything (201), and says when the last of `expected` pushes arrived. */
async function startPushService() {
  let received = 0;
  let lastAt = 0;
  let bytes = 0;
  const server = createServer((request, response) => {
    let size = 0;
    request.on("data", (chunk) => (size += chunk.length));
    request.on("end", () => {
      received++;
      bytes += size;
      lastAt = performance.now();
      response.writeHead(201).end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    received: () => received,
    lastAt: () => lastAt,
    bytes: () => bytes,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

export async function benchPush(baseURL, stateDir) {
  const service = await startPushService();
  try {
    const tag = randomBytes(3).toString("hex");
    const creator = { username: `push_creator_${tag}`, token: randomBytes(32).toString("base64url") };
    const keys = createECDH("prime256v1");
    keys.generateKeys();
    const p256dh = keys.getPublicKey().toString("base64url");
    const auth = randomBytes(16).toString("base64url");
    await seed(
      baseURL,
      stateDir,
      `${personSql(creator.username, "creator", creator.token)}
      WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${DEVICES})
      INSERT INTO users (username, name, email, email_verified_at, password_hash, date_of_birth, account_type, role, created_at, updated_at)
      SELECT printf('push_${tag}_%05d', n), 'Push fan', printf('push_${tag}_%05d@example.test', n), '${NOW}', 'x', '1990-01-01', 'other', 'member', '${NOW}', '${NOW}' FROM seq;
      INSERT INTO follows (follower_id, creator_id, created_at)
      SELECT u.id, (SELECT id FROM users WHERE username = '${creator.username}'), '${NOW}' FROM users u WHERE u.username LIKE 'push_${tag}_%';
      INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, language, label, created_at)
      SELECT u.id, '${service.origin}/push/' || u.id, '${p256dh}', '${auth}', 'en', 'Bench phone', '${NOW}' FROM users u WHERE u.username LIKE 'push_${tag}_%';`,
    );
    const counts = async () => (await (await fetch(`${baseURL}/__bench/d1-statements`)).json()).queue;
    const before = await counts();
    const started = performance.now();
    const published = await fetch(`${baseURL}/api/posts`, {
      method: "POST",
      headers: { Authorization: `Bearer ${creator.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ text: "New post for everyone", audience: "everyone" }),
    });
    if (published.status !== 201) throw new Error(`publishing failed: ${published.status} ${await published.text()}`);
    const answered = performance.now() - started;
    const deadline = started + 600_000;
    while (service.received() < DEVICES && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const seconds = (service.lastAt() - started) / 1000;
    // The consumer's last statements (each push's last_sent_at) follow its last fetch.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const after = await counts();
    const statements = after.statements - before.statements;

    console.log(`\nPush fan-out (loopback, Miniflare; a new post to ${DEVICES} followers' devices)\n`);
    console.log(
      `the POST answered                    ${answered.toFixed(0)} ms (the fan-out runs after it: waitUntil, then the Queue)`,
    );
    console.log(
      `pushes received by the push service  ${service.received()} of ${DEVICES} in ${seconds.toFixed(1)} s   ${(service.received() / Math.max(seconds, 0.001)).toFixed(0)} pushes/s   ` +
        `${(service.bytes() / Math.max(1, service.received())).toFixed(0)} bytes each`,
    );
    console.log(
      `the consumer's subrequests            ${service.received()} fetches (1 per push, at most 10 per consumer run) + ` +
        `${statements} D1 statements in ${after.roundTrips - before.roundTrips} round trips (${(statements / Math.max(1, service.received())).toFixed(1)} statements and ` +
        `${((after.roundTrips - before.roundTrips) / Math.max(1, service.received())).toFixed(2)} round trips per push)`,
    );
  } finally {
    await service.close();
  }
}
