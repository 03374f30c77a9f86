// The mass message figures, over loopback against the local server (figures, no assertions): a priced-free mass
// message to 10,000 recipients (the followers of a creator, 100 expired subscribers among them excluded): the time
// from the POST until the Queue consumer has written every copy, and the D1 statements (and round trips) the
// request and the consumer took, per recipient, counted by the Worker itself (tests/bench/worker/count-d1.ts).
// The reference, measured in the same run: one-to-one messages from the same creator, sent one after another
// through POST /conversations/{id}/messages; the ratio says what one recipient of a mass message costs against one
// ordinary message.
import { randomBytes, randomUUID } from "node:crypto";
import { personSql, seed } from "./chat.mjs";

const RECIPIENTS = Number(process.env.BENCH_MASS_RECIPIENTS ?? 10_000);
const EXPIRED = 100;
const REFERENCE_MESSAGES = Number(process.env.BENCH_MASS_REFERENCE ?? 200);
const NOW = new Date().toISOString();

export async function benchMassMessages(baseURL, stateDir) {
  const tag = randomBytes(3).toString("hex");
  const creator = { username: `mass_creator_${tag}`, token: randomBytes(32).toString("base64url") };
  const fan = { username: `mass_one_${tag}`, token: randomBytes(32).toString("base64url") };
  const creatorId = `(SELECT id FROM users WHERE username = '${creator.username}')`;
  await seed(
    baseURL,
    stateDir,
    `${personSql(creator.username, "creator", creator.token)}
    ${personSql(fan.username, "member", fan.token)}
    INSERT INTO follows (follower_id, creator_id, created_at) SELECT id, ${creatorId}, '${NOW}' FROM users WHERE username = '${fan.username}';
    WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${RECIPIENTS - 1 + EXPIRED})
    INSERT INTO users (username, name, email, email_verified_at, password_hash, date_of_birth, account_type, role, created_at, updated_at)
    SELECT printf('mass_${tag}_%05d', n), 'Mass fan', printf('mass_${tag}_%05d@example.test', n), '${NOW}', 'x', '1990-01-01', 'other', 'member', '${NOW}', '${NOW}' FROM seq;
    INSERT INTO follows (follower_id, creator_id, created_at)
    SELECT u.id, ${creatorId}, '${NOW}' FROM users u WHERE u.username LIKE 'mass_${tag}_%';
    INSERT INTO subscriptions (fan_id, creator_id, period, price_cents, status, started_at, current_period_end)
    SELECT u.id, ${creatorId}, 'month', 0, 'expired', '2020-01-01T00:00:00.000Z', '2020-02-01T00:00:00.000Z'
    FROM users u WHERE u.username LIKE 'mass_${tag}_%' ORDER BY u.id LIMIT ${EXPIRED};`,
  );
  const call = (path, body) =>
    fetch(`${baseURL}/api${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: {
        Authorization: `Bearer ${creator.token}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const counts = async () => (await fetch(`${baseURL}/__bench/d1-statements`)).json();

  // The reference: one-to-one messages from the creator to one fan, one after another.
  const opened = await call("/conversations", { username: fan.username });
  if (!opened.ok) throw new Error(`could not start the conversation: ${opened.status} ${await opened.text()}`);
  const { id: conversationId } = await opened.json();
  const referenceBefore = await counts();
  const referenceStart = performance.now();
  for (let i = 0; i < REFERENCE_MESSAGES; i++) {
    const response = await call(`/conversations/${conversationId}/messages`, {
      clientId: randomUUID(),
      text: `one ${i}`,
    });
    if (response.status !== 200) throw new Error(`send failed: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  }
  const referenceMs = (performance.now() - referenceStart) / REFERENCE_MESSAGES;
  const referenceAfter = await counts();
  const referenceStatements = (referenceAfter.statements - referenceBefore.statements) / REFERENCE_MESSAGES;

  // The mass message: followers except the expired subscribers.
  const before = await counts();
  const started = performance.now();
  const mass = await call("/mass-messages", {
    clientId: randomUUID(),
    include: ["followers"],
    exclude: ["expired"],
    text: "Hello, all of you!",
  });
  if (mass.status !== 202) throw new Error(`mass message refused: ${mass.status} ${await mass.text()}`);
  const { id: massId, recipients } = await mass.json();
  // The progress polls below are requests too: the request side is counted up to here only.
  const afterRequest = await counts();
  let progress = { delivered: 0, status: "sending" };
  while (progress.status !== "sent" && performance.now() - started < 600_000) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    progress = (await (await call("/mass-messages")).json()).massMessages.find((m) => m.id === massId);
  }
  const seconds = (performance.now() - started) / 1000;
  const after = await counts();
  // The request's statements and the consumer's (counted apart).
  const statements = afterRequest.statements - before.statements + (after.queue.statements - before.queue.statements);
  const roundTrips = afterRequest.roundTrips - before.roundTrips + (after.queue.roundTrips - before.queue.roundTrips);
  const perRecipientMs = (seconds * 1000) / Math.max(1, recipients);

  console.log(
    `\nMass messages (loopback, Miniflare; reference: ${REFERENCE_MESSAGES} one-to-one messages in the same run)\n`,
  );
  console.log(
    `one-to-one message (reference)        ${referenceMs.toFixed(2)} ms each, ${referenceStatements.toFixed(1)} D1 statements each`,
  );
  console.log(
    `mass message to ${recipients} recipients   ${seconds.toFixed(1)} s until all ${progress.delivered} written (${progress.status}); ` +
      `${statements} D1 statements in ${roundTrips} round trips`,
  );
  console.log(
    `per recipient                         ${perRecipientMs.toFixed(2)} ms, ${(statements / Math.max(1, recipients)).toFixed(2)} D1 statements ` +
      `(ratio to the reference: time ${(perRecipientMs / referenceMs).toFixed(2)}, statements ${(statements / Math.max(1, recipients) / referenceStatements).toFixed(2)})`,
  );
}
