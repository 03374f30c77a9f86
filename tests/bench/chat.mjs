// The chat figures, over loopback against the local server (figures, no assertions):
//   1. send → delivery: a fan POSTs a message, the creator's ChatRoom socket receives it; p50/p95 over 1,000
//      messages sent one after another (target p95 ≤ 50 ms);
//   2. messages per second through one conversation, 16 senders at once, every one delivered to the socket;
// People and sessions are seeded with SQL (the token kept here, its SHA-256 stored), as money.mjs does.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { percentile } from "./measure.mjs";

const MESSAGES = Number(process.env.BENCH_CHAT_MESSAGES ?? 1000);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 4000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const NOW = new Date().toISOString();

/**
 * Seeding takes longer than the server keeps an idle connection: the first reuse of a pooled socket would fail
 * with "other side closed", so each seed ends with one throwaway request that drops it (as run.mjs does).
 */
export async function seed(baseURL, stateDir, sql) {
  runSql(stateDir, sql);
  await fetch(`${baseURL}/api/health`)
    .then((r) => r.arrayBuffer())
    .catch(() => {});
}

function runSql(stateDir, sql) {
  const file = `${stateDir}/chat-seed-${randomBytes(4).toString("hex")}.sql`;
  writeFileSync(file, sql);
  execFileSync("npx", ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", stateDir, "--file", file], {
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" },
    stdio: "pipe",
  });
}

export function personSql(username, role, token) {
  const hash = createHash("sha256").update(token).digest("hex");
  return `INSERT INTO users (username, name, email, email_verified_at, password_hash, date_of_birth, account_type, role, monetization_enabled, created_at, updated_at)
    VALUES ('${username}', 'Chat bench', '${username}@example.test', '${NOW}', 'x', '1990-01-01', 'other', '${role}', ${role === "creator" ? 1 : 0}, '${NOW}', '${NOW}');
  INSERT INTO sessions (user_id, token_hash, created_at, expires_at) VALUES ((SELECT id FROM users WHERE username = '${username}'), '${hash}', '${NOW}', '2099-01-01T00:00:00.000Z');`;
}

/** A socket on the conversation's ChatRoom that resolves waiters by client id. */
async function openRoom(baseURL, conversationId, token) {
  const socket = new WebSocket(`${baseURL.replace("http", "ws")}/ws/conversations/${conversationId}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const waiting = new Map();
  let received = 0;
  socket.addEventListener("message", (event) => {
    const frame = JSON.parse(event.data);
    if (frame.type !== "message") return;
    received++;
    waiting.get(frame.message.clientId)?.(performance.now());
    waiting.delete(frame.message.clientId);
  });
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", () => reject(new Error("the ChatRoom socket did not open")), { once: true });
  });
  return {
    arrival: (clientId) => new Promise((resolve) => waiting.set(clientId, resolve)),
    received: () => received,
    close: () => socket.close(1000),
  };
}

export async function benchChat(baseURL, stateDir) {
  const tag = randomBytes(3).toString("hex");
  const fan = { username: `chat_fan_${tag}`, token: randomBytes(32).toString("base64url") };
  const creator = { username: `chat_creator_${tag}`, token: randomBytes(32).toString("base64url") };
  await seed(
    baseURL,
    stateDir,
    `${personSql(fan.username, "member", fan.token)}
    ${personSql(creator.username, "creator", creator.token)}
    INSERT INTO follows (follower_id, creator_id, created_at) SELECT f.id, c.id, '${NOW}' FROM users f, users c WHERE f.username = '${fan.username}' AND c.username = '${creator.username}';`,
  );
  const call = (path, token, body) =>
    fetch(`${baseURL}/api${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const started = await call("/conversations", fan.token, { username: creator.username });
  if (!started.ok) throw new Error(`could not start the conversation: ${started.status} ${await started.text()}`);
  const { id: conversationId } = await started.json();
  const room = await openRoom(baseURL, conversationId, creator.token);

  // 1. One message at a time: the time from the POST leaving to the frame arriving on the other socket.
  const latencies = [];
  for (let i = 0; i < MESSAGES; i++) {
    const clientId = randomUUID();
    const arrived = room.arrival(clientId);
    const sentAt = performance.now();
    const response = await call(`/conversations/${conversationId}/messages`, fan.token, {
      clientId,
      text: `message ${i}`,
    });
    if (response.status !== 200) throw new Error(`send failed: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
    latencies.push((await arrived) - sentAt);
  }
  latencies.sort((a, b) => a - b);

  // 2. Sixteen senders for DURATION_MS; then every frame must have arrived.
  const before = room.received();
  let sent = 0;
  const deadline = performance.now() + DURATION_MS;
  const throughputStart = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        const response = await call(`/conversations/${conversationId}/messages`, fan.token, {
          clientId: randomUUID(),
          text: "burst",
        });
        await response.arrayBuffer();
        if (response.status === 200) sent++;
      }
    }),
  );
  const perSecond = sent / ((performance.now() - throughputStart) / 1000);
  const settleBy = Date.now() + 10_000;
  while (room.received() - before < sent && Date.now() < settleBy)
    await new Promise((resolve) => setTimeout(resolve, 20));
  const delivered = room.received() - before;
  room.close();

  console.log(
    `\nChat (loopback, Miniflare; ${MESSAGES} messages one at a time, then ${CONCURRENCY} senders for ${DURATION_MS} ms)\n`,
  );
  console.log(
    `message send → other socket     p50 ${percentile(latencies, 50).toFixed(1)} ms   p95 ${percentile(latencies, 95).toFixed(1)} ms   (target p95 ≤ 50 ms)`,
  );
  console.log(
    `messages through one conversation ${perSecond.toFixed(0).padStart(5)} /s   (${delivered} of ${sent} delivered to the socket)`,
  );
}
