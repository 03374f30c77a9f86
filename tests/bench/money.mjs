// The money figure of QUALITY.md: tips per second (POST /api/users/{username}/tips, the whole HTTP path: session,
// creator lookup, the ledger batch, the creator's notification) with the books audited afterwards (target ≥ 500/s,
// zero violations). Fans get funded wallets through ledger-correct SQL (a top-up transfer from the provider's
// clearing account, balanced and closed, with its payment); a few fans hold only $10 and are hammered
// like the others, so refusals (402) and the no-overspending rule are exercised under concurrency too. The books
// are then checked by GET /__bench/ledger-audit (tests/bench/worker/ledger-audit.ts).
// Then, after the books are read, D1 alone from inside the Worker (POST /__bench/commits-in-worker): a read round
// trip, a one-row write commit, and a tip's ledger batch one and sixteen to a batch: what the database's part of a
// tip costs on this machine, whatever the app does around it.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 4000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const RICH_FANS = 64;
const THIN_FANS = 8;
const CREATORS = 4;
const RICH_CENTS = 1_000_000;
const MAX_TIP_CENTS = 500;
const THIN_CENTS = 1000;
const NOW = new Date().toISOString();

const sqlText = (value) => `'${String(value).replace(/'/g, "''")}'`;

/** The seed: users, a session per fan (the token is kept here, its SHA-256 stored), and funded wallets. */
function seedSql(fans, creators) {
  const lines = [];
  for (const [role, people] of [
    ["member", fans],
    ["creator", creators],
  ]) {
    for (const person of people) {
      lines.push(
        `INSERT INTO users (username, name, email, email_verified_at, password_hash, date_of_birth, account_type, role, monetization_enabled, created_at, updated_at)
         VALUES (${sqlText(person.username)}, 'Money bench', ${sqlText(`${person.username}@example.test`)}, ${sqlText(NOW)}, 'x', '1990-01-01', 'other', '${role}', ${role === "creator" ? 1 : 0}, ${sqlText(NOW)}, ${sqlText(NOW)});`,
      );
    }
  }
  for (const fan of fans) {
    const hash = createHash("sha256").update(fan.token).digest("hex");
    const user = `(SELECT id FROM users WHERE username = ${sqlText(fan.username)})`;
    const ref = sqlText(`bench-seed-${fan.username}`);
    const transfer = `(SELECT id FROM ledger_transfers WHERE ref = ${ref})`;
    lines.push(
      `INSERT INTO sessions (user_id, token_hash, created_at, expires_at) VALUES (${user}, '${hash}', ${sqlText(NOW)}, '2099-01-01T00:00:00.000Z');`,
      `INSERT OR IGNORE INTO ledger_accounts (kind, user_id) VALUES ('wallet', ${user});`,
      `INSERT INTO ledger_transfers (ref, kind, memo, created_at) VALUES (${ref}, 'top_up', 'bench seed', ${sqlText(NOW)});`,
      `INSERT INTO ledger_entries (transfer_id, account_id, amount_cents) VALUES (${transfer}, 2, ${-fan.cents});`,
      `INSERT INTO ledger_entries (transfer_id, account_id, amount_cents) VALUES (${transfer}, (SELECT id FROM ledger_accounts WHERE kind = 'wallet' AND user_id = ${user}), ${fan.cents});`,
      `UPDATE ledger_transfers SET closed = 1 WHERE ref = ${ref};`,
      `INSERT INTO payments (user_id, kind, amount_cents, status, provider, idempotency_key, request_hash, transfer_id, created_at, updated_at)
       VALUES (${user}, 'top_up', ${fan.cents}, 'succeeded', 'sandbox', 's:bench-seed', 'seed', ${transfer}, ${sqlText(NOW)}, ${sqlText(NOW)});`,
    );
  }
  return lines.join("\n");
}

async function measure(task) {
  const tally = { ok: 0, refused: 0, failed: 0, cents: 0 };
  const deadline = performance.now() + DURATION_MS;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) await task(tally);
    }),
  );
  return { ...tally, perSecond: tally.ok / ((performance.now() - started) / 1000) };
}

/** Seeds the fans and creators of the benchmark into the local D1 of `stateDir`. */
export function seedMoneyBench(stateDir) {
  const stamp = Date.now().toString(36);
  const fan = (n, cents) => ({ username: `mfan_${stamp}_${n}`, token: randomBytes(32).toString("base64url"), cents });
  const fans = [
    ...Array.from({ length: RICH_FANS }, (_, n) => fan(n, RICH_CENTS)),
    ...Array.from({ length: THIN_FANS }, (_, n) => fan(RICH_FANS + n, THIN_CENTS)),
  ];
  const creators = Array.from({ length: CREATORS }, (_, n) => ({ username: `mcre_${stamp}_${n}` }));
  const seedFile = `${stateDir}/money-seed.sql`;
  writeFileSync(seedFile, seedSql(fans, creators));
  execFileSync("npx", ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", stateDir, "--file", seedFile], {
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" },
    stdio: "pipe",
  });
  return { fans, creators };
}

export async function benchMoney(baseURL, stateDir) {
  const { fans, creators } = seedMoneyBench(stateDir);
  await fetch(`${baseURL}/api/health`)
    .then((r) => r.arrayBuffer())
    .catch(() => {});
  const before = await (await fetch(`${baseURL}/__bench/ledger-audit`)).json();

  const pick = (items) => items[Math.floor(Math.random() * items.length)];
  const health = async (tally) => {
    const response = await fetch(`${baseURL}/api/health`);
    await response.arrayBuffer();
    if (response.ok) tally.ok++;
    else tally.failed++;
  };
  const tip = async (tally) => {
    const payer = pick(fans);
    const amountCents = 100 + Math.floor(Math.random() * (MAX_TIP_CENTS - 99));
    const response = await fetch(`${baseURL}/api/users/${pick(creators).username}/tips`, {
      method: "POST",
      headers: { Authorization: `Bearer ${payer.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ amountCents, idempotencyKey: randomUUID() }),
    });
    await response.arrayBuffer();
    if (response.status === 200) {
      tally.ok++;
      tally.cents += amountCents;
    } else if (response.status === 402) tally.refused++;
    else tally.failed++;
  };

  await measure(health);
  const warmUp = await measure(tip);
  const rounds = [];
  let roundTrips = 0;
  for (let round = 0; round < 2; round++) {
    const reference = await measure(health);
    const d1Before = await (await fetch(`${baseURL}/__bench/d1-statements`)).json();
    const tips = await measure(tip);
    const d1After = await (await fetch(`${baseURL}/__bench/d1-statements`)).json();
    roundTrips += d1After.roundTrips - d1Before.roundTrips;
    rounds.push({ reference, tips });
  }
  // The same tips without HTTP, the session or validation: sendTip called inside the Worker.
  const d1BeforeInWorker = await (await fetch(`${baseURL}/__bench/d1-statements`)).json();
  const inWorkerResponse = await fetch(`${baseURL}/__bench/tips-in-worker`, {
    method: "POST",
    body: JSON.stringify({
      fans: fans.slice(0, RICH_FANS).map((f) => f.username),
      creators: creators.map((c) => c.username),
      durationMs: DURATION_MS,
      concurrency: CONCURRENCY,
    }),
  });
  if (!inWorkerResponse.ok)
    throw new Error(`tips-in-worker: ${inWorkerResponse.status} ${await inWorkerResponse.text()}`);
  const inWorker = await inWorkerResponse.json();
  const d1AfterInWorker = await (await fetch(`${baseURL}/__bench/d1-statements`)).json();
  const books = await (await fetch(`${baseURL}/__bench/ledger-audit`)).json();
  // What the database's own part costs here, after the books are read (these tips are not the benchmark's).
  const alone = async (kind, perBatch) => {
    const body = {
      kind,
      perBatch,
      durationMs: DURATION_MS,
      concurrency: CONCURRENCY,
      fans: fans.slice(0, RICH_FANS).map((f) => f.username),
      creators: creators.map((c) => c.username),
    };
    const response = await fetch(`${baseURL}/__bench/commits-in-worker`, {
      method: "POST",
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`commits-in-worker: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const floor = {
    read: await alone("read", 1),
    row: await alone("row", 1),
    tip: await alone("tip", 1),
    tips16: await alone("tip", 16),
  };

  const mean = (pick) => rounds.reduce((sum, round) => sum + pick(round), 0) / rounds.length;
  const tipsPerSecond = mean((r) => r.tips.perSecond);
  const healthPerSecond = mean((r) => r.reference.perSecond);
  const accepted = rounds.reduce((sum, r) => sum + r.tips.ok, 0);
  const answered200 = accepted + warmUp.ok + inWorker.ok;
  const refused = rounds.reduce((sum, r) => sum + r.tips.refused, warmUp.refused + inWorker.refused);
  const failed = rounds.reduce((sum, r) => sum + r.tips.failed + r.reference.failed, 0);
  const violations =
    books.unbalancedTransfers +
    books.openTransfers +
    books.negativeAccounts +
    books.driftedAccounts +
    Math.abs(books.totalCents) +
    books.overspentWallets;
  // Every 200 is one tip in the books and nothing else is (the warm-up's tips included).
  const recorded = books.succeededTips - before.succeededTips;

  console.log(
    `\nMoney (${CONCURRENCY} concurrent clients, ${DURATION_MS} ms per measurement, ${RICH_FANS + THIN_FANS} fans of which ${THIN_FANS} hold $${THIN_CENTS / 100}, ${CREATORS} creators)`,
  );
  console.log(`GET /api/health (reference)   ${healthPerSecond.toFixed(0).padStart(7)} req/s`);
  console.log(
    `POST /api/users/{u}/tips      ${tipsPerSecond.toFixed(0).padStart(7)} tips/s  = ${((tipsPerSecond / healthPerSecond) * 100).toFixed(0)}% of the reference (target ≥ 500 tips/s)`,
  );
  console.log(
    `D1 round trips per tip        ${(roundTrips / rounds.reduce((sum, r) => sum + r.tips.ok + r.tips.refused + r.tips.failed, 0)).toFixed(2)}`,
  );
  console.log(
    `tips accepted / refused (402) ${String(accepted).padStart(7)} / ${refused} (all phases)   other failures: ${failed}`,
  );
  console.log(
    `sendTip inside the Worker      ${inWorker.perSecond.toFixed(0).padStart(7)} tips/s  (no HTTP, session or validation; ${((d1AfterInWorker.roundTrips - d1BeforeInWorker.roundTrips) / (inWorker.ok + inWorker.refused + inWorker.failed)).toFixed(2)} D1 round trips per tip; failures ${inWorker.failed})`,
  );
  console.log(`D1 alone, ${CONCURRENCY} at once in the Worker (no HTTP, session, reads or notification):`);
  console.log(`  a read round trip (SELECT 1)  ${floor.read.perSecond.toFixed(0).padStart(7)} /s`);
  console.log(`  a one-row write commit        ${floor.row.perSecond.toFixed(0).padStart(7)} /s`);
  console.log(`  a tip's ledger batch, 1 a batch  ${floor.tip.perSecond.toFixed(0).padStart(4)} tips/s`);
  console.log(
    `  the same, 16 tips a batch     ${floor.tips16.perSecond.toFixed(0).padStart(7)} tips/s   (${floor.tips16.batchesPerSecond.toFixed(0)} batches/s)`,
  );
  console.log(
    `tips in the books             ${String(recorded).padStart(7)}   = ${answered200} accepted (warm-up and in-Worker included)${recorded === answered200 ? "" : "   MISMATCH"}`,
  );
  console.log(
    `ledger violations             ${String(violations).padStart(7)}   (unbalanced ${books.unbalancedTransfers}, open ${books.openTransfers}, negative ${books.negativeAccounts}, drifted ${books.driftedAccounts}, total ${books.totalCents}; target 0)`,
  );
  console.log(
    `wallets overspent             ${String(books.overspentWallets).padStart(7)}   (payments out beyond top-ups in, or a balance that disagrees; target 0)`,
  );
}
