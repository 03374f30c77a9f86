#!/usr/bin/env node
// Demo data for local use: a fan, a creator with a profile and posts, and an admin (README, "Demo accounts").
// Writes into the same local D1 and R2 state that `npm start` serves (.wrangler/state), through wrangler's platform proxy;
// `--persist-to DIR` into another server's (scripts/serve.mjs's option: the demo's end-to-end test has its own).
// Idempotent: does nothing when the demo accounts exist.
import { readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { parseArgs } from "node:util";
import setupArgon2id from "argon2id/lib/setup.js";
import { getPlatformProxy } from "wrangler";
import { demoImage } from "./lib/png.mjs";
import { seedTip, seedTopUp } from "./lib/demo-money.mjs";

export const DEMO_ACCOUNTS = [
  {
    username: "demo_fan",
    name: "Dana Fan",
    email: "fan@demo.test",
    password: "demo-fan-2026",
    role: "member",
    accountType: "female",
  },
  {
    username: "mia.rivers",
    name: "Mia Rivers",
    email: "creator@demo.test",
    password: "demo-creator-2026",
    role: "creator",
    accountType: "female",
  },
  {
    username: "site_admin",
    name: "Site Admin",
    email: "admin@demo.test",
    password: "demo-admin-2026",
    role: "admin",
    accountType: "other",
  },
];

const POSTS = [
  {
    text: "Welcome to my page! New photo sets every week. 🌊",
    audience: "everyone",
    colours: [
      [10, 111, 214],
      [120, 200, 255],
    ],
  },
  {
    text: "Golden hour at the beach today.",
    audience: "everyone",
    colours: [
      [255, 140, 60],
      [255, 220, 120],
    ],
  },
  {
    text: "A little thank-you for my followers.",
    audience: "followers",
    colours: [
      [90, 60, 200],
      [220, 120, 255],
    ],
  },
  {
    text: "Behind the scenes of this week's shoot, for subscribers only.",
    audience: "subscribers",
    colours: [
      [20, 140, 100],
      [160, 240, 200],
    ],
  },
  {
    text: "The full sunset set, 12 photos. Unlock it for $9.99.",
    audience: "everyone",
    priceCents: 999,
    colours: [
      [200, 60, 90],
      [255, 190, 90],
    ],
  },
];

// The same parameters and PHC format as worker/domain/auth/password.ts, so the Worker verifies these hashes.
const wasm = (file) => readFileSync(new URL(`../node_modules/argon2id/dist/${file}`, import.meta.url));
const argon2id = await setupArgon2id(
  (imports) => WebAssembly.instantiate(wasm("simd.wasm"), imports),
  (imports) => WebAssembly.instantiate(wasm("no-simd.wasm"), imports),
);
const b64url = (bytes) => Buffer.from(bytes).toString("base64url");
function hashPassword(password) {
  const salt = randomBytes(16);
  const hash = argon2id({
    password: new TextEncoder().encode(password),
    salt,
    memorySize: 19456,
    passes: 2,
    parallelism: 1,
    tagLength: 32,
  });
  return `$argon2id$v=19$m=19456,t=2,p=1$${b64url(salt)}$${b64url(hash)}`;
}

/** The id of the account named `username`, or undefined when there is none. */
const userId = async (env, username) =>
  (await env.DB.prepare("SELECT id FROM users WHERE username = ?").bind(username).first())?.id;

/**
 * The fan topped up $100 twelve days ago and tipped the creator $75 then (released by the first cron run: $60
 * available after the 20% fee, enough to try a withdrawal), and `seedTodaysTip` $15 today (pending for 7 business
 * days), once the conversation and the stream have their payments: every step writes its payments in the order of
 * their times, so the wallet's history (newest first, by id as the app writes them) reads in order.
 */
async function seedMoney() {
  const fanId = await userId(env, "demo_fan");
  const creatorId = await userId(env, "mia.rivers");
  const daysAgo = (days) => new Date(Date.now() - days * 86_400_000).toISOString();
  await seedTopUp(env.DB, fanId, 10_000, daysAgo(12));
  await seedTip(env.DB, { fanId, creatorId, cents: 7500, feePercent: 20, at: daysAgo(12), releaseAt: daysAgo(1) });
}

/**
 * The creator's offers (their own idempotent step): a $9.99 monthly plan with 3- and 6-month bundles (her yearly
 * plan is cheaper than a 12-month one would be), a 50%-off promotion for new fans (one month, 100 places, ending in
 * 5 days), which the demo fan sees on her Subscribe button, a 7-day free-trial link
 * (/mia.rivers?trial=summer-trial) and a retention offer (30% off the next 2 renewals).
 */
async function seedOffers(env) {
  const creatorId = await userId(env, "mia.rivers");
  if (await env.DB.prepare("SELECT 1 FROM offers WHERE creator_id = ?").bind(creatorId).first()) return;
  const now = new Date().toISOString();
  const inDays = (days) => new Date(Date.now() + days * 86_400_000).toISOString();
  await env.DB.batch([
    env.DB.prepare(
      "UPDATE subscription_plans SET price_cents = 999, updated_at = ? WHERE creator_id = ? AND period = 'month' AND price_cents = 0",
    ).bind(now, creatorId),
    env.DB.prepare(
      "INSERT OR IGNORE INTO subscription_bundles (creator_id, months, discount_percent, updated_at) VALUES (?1, 3, 10, ?2), (?1, 6, 15, ?2)",
    ).bind(creatorId, now),
    env.DB.prepare(
      "INSERT INTO offers (creator_id, kind, percent_off, audience, periods, claim_limit, ends_at, created_at) VALUES (?, 'promotion', 50, 'new', 1, 100, ?, ?)",
    ).bind(creatorId, inDays(5), now),
    env.DB.prepare(
      "INSERT INTO offers (creator_id, kind, percent_off, trial_days, code, claim_limit, ends_at, created_at) VALUES (?, 'trial', 100, 7, 'summer-trial', 50, ?, ?)",
    ).bind(creatorId, inDays(30), now),
    env.DB.prepare(
      "INSERT INTO offers (creator_id, kind, percent_off, periods, created_at) VALUES (?, 'retention', 30, 2, ?)",
    ).bind(creatorId, now),
  ]);
  console.log(
    "Demo offers created: /mia.rivers shows a promotion; /mia.rivers?trial=summer-trial starts a free trial.",
  );
}

/**
 * The creator's own lists of fans (their own idempotent step): "Regulars" and "Big tippers", the demo fan in both, so
 * /lists shows custom lists with fans in them beside the ones the system keeps.
 */
async function seedFanLists(env) {
  const creatorId = await userId(env, "mia.rivers");
  const fanId = await userId(env, "demo_fan");
  if (!creatorId || !fanId) return;
  if (await env.DB.prepare("SELECT 1 FROM fan_lists WHERE creator_id = ?").bind(creatorId).first()) return;
  const now = new Date().toISOString();
  for (const name of ["Regulars", "Big tippers"]) {
    const { id } = await env.DB.prepare(
      "INSERT INTO fan_lists (creator_id, name, created_at) VALUES (?, ?, ?) RETURNING id",
    )
      .bind(creatorId, name, now)
      .first();
    await env.DB.prepare("INSERT INTO fan_list_members (list_id, fan_id, added_at) VALUES (?, ?, ?)")
      .bind(id, fanId, now)
      .run();
  }
}

async function seedTodaysTip() {
  await seedTip(env.DB, {
    fanId: await userId(env, "demo_fan"),
    creatorId: await userId(env, "mia.rivers"),
    cents: 1500,
    feePercent: 20,
    at: new Date().toISOString(),
    releaseAt: new Date(Date.now() + 9 * 86_400_000).toISOString(),
  });
}

/**
 * A conversation between the demo fan and the creator (its own idempotent step, so an existing local database
 * gets it too): the fan's hello, a message the fan paid $2 to send (the creator's per-message price at the time),
 * the creator's answer, a $3 tip with a note, and a pay-per-view photo at $4.99, unread, that the fan has not
 * bought yet (the wallet keeps $5, enough to).
 */
async function seedChat(env) {
  const fanId = await userId(env, "demo_fan");
  const creatorId = await userId(env, "mia.rivers");
  if (!fanId || !creatorId) return;
  const [low, high] = fanId < creatorId ? [fanId, creatorId] : [creatorId, fanId];
  if (await env.DB.prepare("SELECT 1 FROM conversations WHERE user_low = ? AND user_high = ?").bind(low, high).first())
    return;
  const minutesAgo = (minutes) => new Date(Date.now() - minutes * 60_000).toISOString();
  // A fan writes to creators they follow (worker/domain/policies/conversations.ts); databases seeded before the
  // demo follow existed get it here.
  await env.DB.prepare("INSERT OR IGNORE INTO follows (follower_id, creator_id, created_at) VALUES (?, ?, ?)")
    .bind(fanId, creatorId, minutesAgo(3000))
    .run();
  const releaseAt = new Date(Date.now() + 8 * 86_400_000).toISOString();
  await seedTip(env.DB, {
    fanId,
    creatorId,
    cents: 200,
    feePercent: 20,
    at: minutesAgo(2800),
    releaseAt,
    kind: "message",
    note: null,
  });
  const tipNote = "For the sunrise series ☀️";
  await seedTip(env.DB, {
    fanId,
    creatorId,
    cents: 300,
    feePercent: 20,
    at: minutesAgo(1400),
    releaseAt,
    note: tipNote,
  });
  const { id: conversationId } = await env.DB.prepare(
    "INSERT INTO conversations (user_low, user_high, created_at) VALUES (?, ?, ?) RETURNING id",
  )
    .bind(low, high, minutesAgo(2900))
    .first();
  const previewKey = `previews/${randomBytes(16).toString("hex")}.png`;
  const photo = await putPostPhoto(env, [255, 120, 80], [255, 230, 150], 11);
  await putPng(env, previewKey, demoImage(40, 50, [240, 150, 110], [250, 210, 160], 11));
  const { id: photoId } = await env.DB.prepare(
    "INSERT INTO media (user_id, purpose, kind, status, object_key, w640_key, preview_key, content_type, size_bytes, width, height, created_at) VALUES (?, 'post', 'image', 'ready', ?, ?, ?, 'image/png', 1, 800, 1000, ?) RETURNING id",
  )
    .bind(creatorId, photo.key, photo.w640Key, previewKey, minutesAgo(60))
    .first();
  const messages = [
    { from: fanId, text: "Hi Mia! The golden hour set is stunning 😍", at: minutesAgo(2900) },
    { from: fanId, text: "Any chance of a sunrise series next?", at: minutesAgo(2800), paidCents: 200 },
    { from: creatorId, text: "Thank you Dana! Sunrise is next week, promise 🌅", at: minutesAgo(1500) },
    { from: fanId, text: tipNote, at: minutesAgo(1400), tipCents: 300 },
    {
      from: creatorId,
      text: "A sneak peek of tomorrow's set, just for you.",
      at: minutesAgo(60),
      priceCents: 499,
      mediaId: photoId,
    },
  ];
  const statements = messages.map((m, index) =>
    env.DB.prepare(
      "INSERT INTO messages (conversation_id, seq, sender_id, client_id, text, price_cents, paid_cents, tip_cents, media_count, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ).bind(
      conversationId,
      index + 1,
      m.from,
      `seed-${randomBytes(8).toString("hex")}`,
      m.text,
      m.priceCents ?? 0,
      m.paidCents ?? 0,
      m.tipCents ?? 0,
      m.mediaId ? 1 : 0,
      m.at,
    ),
  );
  const last = messages.at(-1);
  await env.DB.batch([
    ...statements,
    env.DB.prepare(
      "INSERT INTO message_media (message_id, media_id, position) SELECT id, ?, 0 FROM messages WHERE conversation_id = ? AND seq = ?",
    ).bind(photoId, conversationId, messages.length),
    env.DB.prepare(
      "UPDATE conversations SET last_message_id = (SELECT id FROM messages WHERE conversation_id = ?1 AND seq = ?3), last_message_at = ?2 WHERE id = ?1",
    ).bind(conversationId, last.at, messages.length),
    env.DB.prepare(
      "INSERT INTO conversation_members (conversation_id, user_id, unread_count, last_read_seq, activity_at) VALUES (?, ?, 1, 4, ?), (?, ?, 0, ?, ?)",
    ).bind(conversationId, fanId, last.at, conversationId, creatorId, messages.length, last.at),
  ]);
  console.log("Demo conversation created between @demo_fan and @mia.rivers.");
}

const DEMO_WELCOME = "Welcome, and thank you for subscribing! 💙 New sets every week; say hi any time.";

/**
 * The creator's welcome message, on (its own idempotent step), and the copy the demo fan got in their conversation
 * with her: the newest message there, unread. The fan is not subscribed in the demo (their free trial link and the
 * promotion for new fans stay open to them), so this copy stands for the one a subscription sends.
 */
async function seedWelcomeMessage(env) {
  const fanId = await userId(env, "demo_fan");
  const creatorId = await userId(env, "mia.rivers");
  if (!fanId || !creatorId) return;
  if (await env.DB.prepare("SELECT 1 FROM welcome_messages WHERE creator_id = ?").bind(creatorId).first()) return;
  const [low, high] = fanId < creatorId ? [fanId, creatorId] : [creatorId, fanId];
  const conversation = await env.DB.prepare("SELECT id FROM conversations WHERE user_low = ? AND user_high = ?")
    .bind(low, high)
    .first();
  if (!conversation) return;
  const at = new Date(Date.now() - 30 * 60_000).toISOString();
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO welcome_messages (creator_id, enabled, text, price_cents, media_ids, updated_at) VALUES (?, 1, ?, 0, '[]', ?)",
    ).bind(creatorId, DEMO_WELCOME, at),
    env.DB.prepare(
      `INSERT INTO messages (conversation_id, seq, sender_id, client_id, text, price_cents, paid_cents, tip_cents, media_count, created_at)
       VALUES (?1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE conversation_id = ?1), ?2, 'welcome-demo', ?3, 0, 0, 0, 0, ?4)`,
    ).bind(conversation.id, creatorId, DEMO_WELCOME, at),
    env.DB.prepare(
      "UPDATE conversations SET last_message_id = (SELECT id FROM messages WHERE sender_id = ?2 AND client_id = 'welcome-demo'), last_message_at = ?3 WHERE id = ?1",
    ).bind(conversation.id, creatorId, at),
    env.DB.prepare(
      `UPDATE conversation_members SET activity_at = ?3, unread_count = unread_count + (user_id = ?2),
         last_read_seq = CASE WHEN user_id = ?2 THEN last_read_seq ELSE (SELECT MAX(seq) FROM messages WHERE conversation_id = ?1) END
       WHERE conversation_id = ?1`,
    ).bind(conversation.id, fanId, at),
  ]);
  console.log("Demo welcome message on for @mia.rivers; @demo_fan has received it.");
}

/**
 * Mass messages (its own idempotent step): Mia's sent one to her subscribers, a priced photo that Dana read and
 * bought ($4.99 through the ledger, like an unlock), so its results show a read, an unlock and its revenue; and one
 * scheduled for tomorrow, to edit or cancel in Messages → New mass message.
 */
async function seedMassMessages(env) {
  const fanId = await userId(env, "demo_fan");
  const creatorId = await userId(env, "mia.rivers");
  if (!fanId || !creatorId) return;
  if (await env.DB.prepare("SELECT 1 FROM mass_messages WHERE sender_id = ?").bind(creatorId).first()) return;
  const [low, high] = fanId < creatorId ? [fanId, creatorId] : [creatorId, fanId];
  const conversation = await env.DB.prepare("SELECT id FROM conversations WHERE user_low = ? AND user_high = ?")
    .bind(low, high)
    .first();
  if (!conversation) return;
  const at = new Date(Date.now() - 30 * 60_000).toISOString();
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
  const priceCents = 499;
  const photo = await putPostPhoto(env, [120, 90, 200], [240, 170, 220], 17);
  const previewKey = `previews/${randomBytes(16).toString("hex")}.png`;
  await putPng(env, previewKey, demoImage(40, 50, [150, 120, 210], [230, 190, 230], 17));
  const { id: photoId } = await env.DB.prepare(
    "INSERT INTO media (user_id, purpose, kind, status, object_key, w640_key, preview_key, content_type, size_bytes, width, height, created_at) VALUES (?, 'post', 'image', 'ready', ?, ?, ?, 'image/png', 1, 800, 1000, ?) RETURNING id",
  )
    .bind(creatorId, photo.key, photo.w640Key, previewKey, at)
    .first();
  const text = "Behind the scenes of the lavender shoot, for my subscribers 💜";
  const { id: massId } = await env.DB.prepare(
    `INSERT INTO mass_messages (sender_id, client_id, include_lists, exclude_lists, text, price_cents, media_ids, recipients, delivered, status, send_at, created_at)
     VALUES (?, ?, '["subscribers","followers"]', '[]', ?, ?, ?, 1, 1, 'sent', ?, ?) RETURNING id`,
  )
    .bind(creatorId, `seed-${randomBytes(8).toString("hex")}`, text, priceCents, JSON.stringify([photoId]), at, at)
    .first();
  const seq = "(SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE conversation_id = ?1)";
  const copy = "(SELECT id FROM messages WHERE mass_message_id = ?1)";
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO messages (conversation_id, seq, sender_id, client_id, text, price_cents, media_count, mass_message_id, created_at)
       VALUES (?1, ${seq}, ?2, ?3, ?4, ?5, 1, ?6, ?7)`,
    ).bind(conversation.id, creatorId, `mass-${massId}-${fanId}`, text, priceCents, massId, at),
    env.DB.prepare(`INSERT INTO message_media (message_id, media_id, position) VALUES (${copy}, ?2, 0)`).bind(
      massId,
      photoId,
    ),
    env.DB.prepare(
      `INSERT INTO message_purchases (message_id, user_id, price_cents, created_at) VALUES (${copy}, ?2, ?3, ?4)`,
    ).bind(massId, fanId, priceCents, at),
    env.DB.prepare(`UPDATE conversations SET last_message_id = ${copy}, last_message_at = ?2 WHERE id = ?3`).bind(
      massId,
      at,
      conversation.id,
    ),
    // Dana has read it (the read in its results).
    env.DB.prepare(
      `UPDATE conversation_members SET activity_at = ?2,
         last_read_seq = (SELECT seq FROM messages WHERE id = ${copy}), unread_count = CASE WHEN user_id = ?3 THEN 0 ELSE unread_count END
       WHERE conversation_id = ?4`,
    ).bind(massId, at, fanId, conversation.id),
    env.DB.prepare(
      `INSERT INTO mass_messages (sender_id, client_id, include_lists, exclude_lists, text, status, send_at, created_at)
       VALUES (?, ?, '["subscribers"]', '["expired"]', ?, 'scheduled', ?, ?)`,
    ).bind(creatorId, `seed-${randomBytes(8).toString("hex")}`, "New set drops tomorrow morning ☀️", tomorrow, at),
  ]);
  await seedTip(env.DB, {
    fanId,
    creatorId,
    cents: priceCents,
    feePercent: 20,
    at,
    releaseAt: new Date(Date.now() + 8 * 86_400_000).toISOString(),
    kind: "message",
    note: null,
  });
  console.log("Demo mass messages created for @mia.rivers: one sent (read and bought), one scheduled.");
}

/**
 * A stream the creator ran two days ago (its own idempotent step, renewed when the last one is over a few days old,
 * so /live's "Recently ended" and the studio's "Past streams" are never empty in the demo): 42 minutes, 37 people
 * at its peak, and the demo fan's $10 tip with a note (from a $10 top-up just before), under "Live streams" on
 * the creator's dashboard.
 */
async function seedLive(env) {
  const fanId = await userId(env, "demo_fan");
  const creatorId = await userId(env, "mia.rivers");
  if (!fanId || !creatorId) return;
  const hoursAgo = (hours) => new Date(Date.now() - hours * 3_600_000).toISOString();
  if (
    await env.DB.prepare("SELECT 1 FROM live_streams WHERE creator_id = ? AND started_at > ?")
      .bind(creatorId, hoursAgo(24 * 5))
      .first()
  )
    return;
  const startedAt = hoursAgo(50);
  const endedAt = new Date(Date.parse(startedAt) + 42 * 60_000).toISOString();
  const { id: streamId } = await env.DB.prepare(
    `INSERT INTO live_streams (creator_id, title, audience, price_cents, goal_cents, goal_title, transport, status, end_reason, started_at, ended_at, viewers, peak_viewers, tips_cents)
     VALUES (?, 'Sunrise Q&A on the beach', 'everyone', 0, 5000, 'A new lens', 'p2p', 'ended', 'creator', ?, ?, 0, 37, 1000) RETURNING id`,
  )
    .bind(creatorId, startedAt, endedAt)
    .first();
  const tippedAt = new Date(Date.parse(startedAt) + 17 * 60_000).toISOString();
  try {
    // The fan topped up $10 for it just before (the rest of her wallet stays as the chat left it).
    await seedTopUp(env.DB, fanId, 1000, hoursAgo(51));
    await seedTip(env.DB, {
      fanId,
      creatorId,
      cents: 1000,
      feePercent: 20,
      at: tippedAt,
      releaseAt: hoursAgo(-24 * 6),
      kind: "live_tip",
      note: "Best sunrise yet!",
      liveStreamId: streamId,
    });
  } catch (error) {
    await env.DB.prepare("DELETE FROM live_streams WHERE id = ?").bind(streamId).run();
    throw error;
  }
  console.log("Demo live stream (two days ago) created for @mia.rivers.");
}

/**
 * Stories (their own idempotent step, renewed whenever the creator has none live, since they last 24 hours): two
 * photo stories of the creator's from the last hours, which the demo fan sees unseen in Home's tray, and a
 * highlight "Beach days" on her profile holding an older one that the cron keeps.
 */
async function seedStories(env) {
  const creatorId = await userId(env, "mia.rivers");
  if (!creatorId) return;
  const now = Date.now();
  const at = (hoursAgo) => new Date(now - hoursAgo * 3_600_000).toISOString();
  const story = async ({ hoursAgo, text, colours, seed, highlightId = null }) => {
    const key = `stories/${randomBytes(16).toString("hex")}.png`;
    // Its poster, 240 pixels wide, as the uploader's browser makes it: a highlight's cover (app/lib/uploads.ts).
    const posterKey = `stories/posters/${randomBytes(16).toString("hex")}.png`;
    await putPng(env, key, demoImage(540, 960, colours[0], colours[1], seed));
    await putPng(env, posterKey, demoImage(240, 427, colours[0], colours[1], seed));
    const { id: mediaId } = await env.DB.prepare(
      "INSERT INTO media (user_id, purpose, kind, status, object_key, poster_key, content_type, size_bytes, width, height, created_at) VALUES (?, 'post', 'image', 'ready', ?, ?, 'image/png', 1, 540, 960, ?) RETURNING id",
    )
      .bind(creatorId, key, posterKey, at(hoursAgo))
      .first();
    await env.DB.prepare(
      "INSERT INTO stories (creator_id, media_id, text, audience, created_at, expires_at, highlight_id) VALUES (?, ?, ?, 'everyone', ?, ?, ?)",
    )
      .bind(creatorId, mediaId, text, at(hoursAgo), at(hoursAgo - 24), highlightId)
      .run();
  };
  if (!(await env.DB.prepare("SELECT 1 FROM story_highlights WHERE creator_id = ?").bind(creatorId).first())) {
    const { id: highlightId } = await env.DB.prepare(
      "INSERT INTO story_highlights (creator_id, title, created_at) VALUES (?, 'Beach days', ?) RETURNING id",
    )
      .bind(creatorId, at(72))
      .first();
    await story({
      hoursAgo: 72,
      text: "Best wave of the summer 🏄",
      colours: [
        [0, 90, 160],
        [140, 220, 255],
      ],
      seed: 11,
      highlightId,
    });
  }
  if (
    await env.DB.prepare("SELECT 1 FROM stories WHERE creator_id = ? AND expires_at > ?")
      .bind(creatorId, new Date(now).toISOString())
      .first()
  )
    return;
  await story({
    hoursAgo: 3,
    text: "Morning swim before the shoot",
    colours: [
      [255, 170, 80],
      [255, 235, 180],
    ],
    seed: 5,
  });
  await story({
    hoursAgo: 0.5,
    text: "New set drops tonight ✨",
    colours: [
      [120, 40, 160],
      [255, 120, 200],
    ],
    seed: 9,
  });
  console.log("Demo stories created for @mia.rivers.");
}

/**
 * Notifications of what the demo data already holds (their own idempotent step, for a database seeded before it):
 * the creator's of the fan's follow and tips (the one in the conversation opens it, the live tip its stream), the
 * newest unread; the fan's of the top-ups and of the creator going live. Each line on /notifications links where
 * its push would open.
 */
async function seedNotifications(env) {
  const fanId = await userId(env, "demo_fan");
  const creatorId = await userId(env, "mia.rivers");
  if (!fanId || !creatorId) return;
  if (await env.DB.prepare("SELECT 1 FROM notifications WHERE user_id IN (?, ?)").bind(fanId, creatorId).first())
    return;
  const rows = [];
  const follow = await env.DB.prepare("SELECT created_at FROM follows WHERE follower_id = ? AND creator_id = ?")
    .bind(fanId, creatorId)
    .first();
  if (follow) rows.push({ userId: creatorId, kind: "follow", actorId: fanId, params: {}, at: follow.created_at });
  const { results: payments } = await env.DB.prepare(
    "SELECT kind, amount_cents, live_stream_id, note, created_at FROM payments WHERE user_id = ? AND status = 'succeeded' ORDER BY created_at",
  )
    .bind(fanId)
    .all();
  for (const payment of payments) {
    if (payment.kind === "top_up")
      rows.push({
        userId: fanId,
        kind: "top_up",
        actorId: null,
        params: { amountCents: payment.amount_cents },
        at: payment.created_at,
      });
    if (payment.kind === "live_tip")
      rows.push({
        userId: creatorId,
        kind: "tip",
        actorId: fanId,
        params: { amountCents: payment.amount_cents, streamId: payment.live_stream_id },
        at: payment.created_at,
      });
    if (payment.kind === "tip") {
      const thread = await env.DB.prepare(
        "SELECT conversation_id FROM messages WHERE sender_id = ? AND tip_cents = ? AND text = ?",
      )
        .bind(fanId, payment.amount_cents, payment.note ?? "")
        .first();
      rows.push({
        userId: creatorId,
        kind: "tip",
        actorId: fanId,
        params: { amountCents: payment.amount_cents, ...(thread ? { conversationId: thread.conversation_id } : {}) },
        at: payment.created_at,
      });
    }
  }
  const { results: streams } = await env.DB.prepare(
    "SELECT id, title, started_at FROM live_streams WHERE creator_id = ?",
  )
    .bind(creatorId)
    .all();
  for (const stream of streams)
    rows.push({
      userId: fanId,
      kind: "live",
      actorId: creatorId,
      params: { streamId: stream.id, title: stream.title },
      at: stream.started_at,
    });
  rows.sort((a, b) => a.at.localeCompare(b.at));
  const newestOfCreator = rows.filter((row) => row.userId === creatorId).at(-1);
  await env.DB.batch(
    rows.map((row) =>
      env.DB.prepare(
        "INSERT INTO notifications (user_id, kind, actor_id, params, created_at, read_at) VALUES (?, ?, ?, ?, ?, ?)",
      ).bind(
        row.userId,
        row.kind,
        row.actorId,
        JSON.stringify(row.params),
        row.at,
        row === newestOfCreator ? null : row.at,
      ),
    ),
  );
  console.log(`Demo notifications created (${rows.length}).`);
}

/**
 * Two of the creator's public posts in the demo fan's bookmarks (their own idempotent step), so /bookmarks shows
 * something, and what the fan keeps for offline reading is there from the start.
 */
async function seedBookmarks(env) {
  const fanId = await userId(env, "demo_fan");
  const creatorId = await userId(env, "mia.rivers");
  if (!fanId || !creatorId) return;
  if (await env.DB.prepare("SELECT 1 FROM bookmarks WHERE user_id = ?").bind(fanId).first()) return;
  const { results: posts } = await env.DB.prepare(
    "SELECT id, published_at FROM posts WHERE user_id = ? AND audience = 'everyone' AND price_cents = 0 AND status = 'published' ORDER BY published_at DESC LIMIT 2",
  )
    .bind(creatorId)
    .all();
  for (const post of posts) {
    await env.DB.prepare("INSERT OR IGNORE INTO bookmarks (user_id, post_id, created_at) VALUES (?, ?, ?)")
      .bind(fanId, post.id, post.published_at)
      .run();
  }
  if (posts.length > 0) console.log(`Demo bookmarks created (${posts.length}).`);
}

/**
 * A second creator the demo fan does not follow yet (its own idempotent step): three public posts, a free monthly
 * plan, so Search and the right column suggest someone to follow, and following him brings his posts to the feed.
 */
const SECOND_CREATOR = {
  username: "noah.waves",
  name: "Noah Waves",
  email: "noah@demo.test",
  password: "demo-noah-2026",
  bio: "Surf photography from the Atlantic coast.",
};
const SECOND_CREATOR_POSTS = [
  {
    text: "First light on the reef, before anyone paddled out.",
    colours: [
      [20, 80, 140],
      [120, 210, 230],
    ],
  },
  {
    text: "Storm swell rolling in. Stayed on the cliffs for this one.",
    colours: [
      [60, 70, 90],
      [170, 190, 210],
    ],
  },
  {
    text: "Board wax, sunburn and a very good day.",
    colours: [
      [230, 120, 40],
      [250, 220, 140],
    ],
  },
];

async function seedSecondCreator(env) {
  if (await env.DB.prepare("SELECT 1 FROM users WHERE username = ?").bind(SECOND_CREATOR.username).first()) return;
  const now = Date.now();
  const at = (daysAgo) => new Date(now - daysAgo * 86_400_000).toISOString();
  const avatarKey = `public/avatars/noah-waves-${randomBytes(6).toString("hex")}.png`;
  await putPng(env, avatarKey, demoImage(256, 256, [10, 70, 110], [120, 200, 220], 4));
  const coverKey = `public/covers/${randomBytes(8).toString("hex")}.png`;
  await putPng(env, coverKey, demoImage(1200, 400, [0, 60, 110], [90, 190, 220], 13));
  const { id } = await env.DB.prepare(
    `INSERT INTO users (username, name, email, email_verified_at, password_hash, date_of_birth, account_type, role, bio, avatar_key, cover_key, monetization_enabled, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, '1992-08-30', 'male', 'creator', ?, ?, ?, 1, ?, ?) RETURNING id`,
  )
    .bind(
      SECOND_CREATOR.username,
      SECOND_CREATOR.name,
      SECOND_CREATOR.email,
      at(30),
      hashPassword(SECOND_CREATOR.password),
      SECOND_CREATOR.bio,
      avatarKey,
      coverKey,
      at(30),
      at(30),
    )
    .first();
  await env.DB.prepare(
    "INSERT INTO subscription_plans (creator_id, period, price_cents, updated_at) VALUES (?, 'month', 0, ?)",
  )
    .bind(id, at(30))
    .run();
  for (const [index, post] of SECOND_CREATOR_POSTS.entries()) {
    const publishedAt = at(SECOND_CREATOR_POSTS.length - index + 0.5);
    const { id: postId } = await env.DB.prepare(
      "INSERT INTO posts (user_id, text, audience, price_cents, published_at, created_at) VALUES (?, ?, 'everyone', 0, ?, ?) RETURNING id",
    )
      .bind(id, post.text, publishedAt, publishedAt)
      .first();
    const photo = await putPostPhoto(env, post.colours[0], post.colours[1], index + 21);
    await attachPhoto(env, id, postId, photo, publishedAt);
  }
  console.log(
    `Demo creator @${SECOND_CREATOR.username} created (${SECOND_CREATOR.email} / ${SECOND_CREATOR.password}), not followed by the fan.`,
  );
}

/**
 * The creator's video post (its own idempotent step), for her followers: an 8-second clip with its 360p and 720p
 * renditions, poster frame and blurred preview, as the uploading browser makes them (app/lib/video-renditions.ts).
 * The files were made once with ffmpeg (scripts/demo-media/); the 720p rendition doubles as the original.
 */
async function seedVideoPost(env) {
  const creatorId = await userId(env, "mia.rivers");
  if (await env.DB.prepare("SELECT 1 FROM media WHERE user_id = ? AND kind = 'video'").bind(creatorId).first()) return;
  const file = (name) => readFileSync(new URL(`./demo-media/${name}`, import.meta.url));
  const put = (key, bytes, contentType) =>
    env.MEDIA.put(key, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), {
      httpMetadata: { contentType },
    });
  const hex = () => randomBytes(16).toString("hex");
  const keys = {
    original: `posts/${hex()}.mp4`,
    poster: `posters/${hex()}.jpg`,
    preview: `previews/${hex()}.jpg`,
    "360p": `renditions/${hex()}.mp4`,
    "720p": `renditions/${hex()}.mp4`,
  };
  const hi = file("demo-720p.mp4");
  const lo = file("demo-360p.mp4");
  await put(keys.original, hi, "video/mp4");
  await put(keys["720p"], hi, "video/mp4");
  await put(keys["360p"], lo, "video/mp4");
  await put(keys.poster, file("poster.jpg"), "image/jpeg");
  await put(keys.preview, file("preview.jpg"), "image/jpeg");
  const at = new Date(Date.now() - 3_600_000).toISOString();
  const { id: postId } = await env.DB.prepare(
    "INSERT INTO posts (user_id, text, audience, price_cents, published_at, created_at) VALUES (?, ?, 'followers', 0, ?, ?) RETURNING id",
  )
    .bind(creatorId, "Behind the scenes: eight seconds from today's shoot. 🎬", at, at)
    .first();
  const { id: mediaId } = await env.DB.prepare(
    "INSERT INTO media (user_id, kind, status, object_key, poster_key, preview_key, content_type, size_bytes, width, height, duration_ms, created_at) VALUES (?, 'video', 'ready', ?, ?, ?, 'video/mp4', ?, 1280, 720, 8000, ?) RETURNING id",
  )
    .bind(creatorId, keys.original, keys.poster, keys.preview, hi.byteLength, at)
    .first();
  await env.DB.prepare("INSERT INTO post_media (post_id, media_id, position) VALUES (?, ?, 0)")
    .bind(postId, mediaId)
    .run();
  await env.DB.prepare(
    `INSERT INTO media_renditions (media_id, name, status, object_key, content_type, size_bytes, codecs, width, height, duration_ms, created_at)
     VALUES (?1, '360p', 'ready', ?2, 'video/mp4', ?3, 'avc1.4d401e,mp4a.40.2', 640, 360, 8000, ?6),
            (?1, '720p', 'ready', ?4, 'video/mp4', ?5, 'avc1.64001f,mp4a.40.2', 1280, 720, 8000, ?6)`,
  )
    .bind(mediaId, keys["360p"], lo.byteLength, keys["720p"], hi.byteLength, at)
    .run();
  console.log("Demo video post created: @mia.rivers's followers see an 8-second clip that plays at 360p or 720p.");
}

// The proxy passes plain ArrayBuffers across to workerd, not Node Buffers.
/** A demo post photo, 800×1000, and its copy 640 pixels wide, as the uploader's browser makes it (app/lib/uploads.ts). */
/**
 * Another signed-in device of the demo fan (its own idempotent step), so Settings → Security has one to sign out:
 * a phone in France, used two days ago. Its token is random and never shown: nobody can use the session itself.
 */
async function seedDevices(env) {
  const fanId = await userId(env, "demo_fan");
  if (!fanId) return;
  if (await env.DB.prepare("SELECT 1 FROM known_devices WHERE user_id = ?").bind(fanId).first()) return;
  const at = (daysAgo) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();
  const iPhone =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO sessions (user_id, token_hash, created_at, last_active_at, expires_at, user_agent, country) VALUES (?, ?, ?, ?, ?, ?, 'FR')",
    ).bind(fanId, randomBytes(32).toString("hex"), at(9), at(2), at(-21), iPhone),
    env.DB.prepare(
      "INSERT INTO known_devices (user_id, browser, system, country, first_seen_at) VALUES (?, 'Safari', 'iPhone', 'FR', ?)",
    ).bind(fanId, at(9)),
  ]);
  console.log("Demo signed-in device created.");
}

/**
 * The creator's vault (docs/decisions/vault-library.md): three photos uploaded straight into it, used by nothing
 * yet, and an album "Beach set" holding them and the photo of her newest post. Its own idempotent step.
 */
async function seedVault(env) {
  const creatorId = await userId(env, "mia.rivers");
  if (!creatorId) return;
  if (await env.DB.prepare("SELECT 1 FROM vault_albums WHERE creator_id = ?").bind(creatorId).first()) return;
  const at = (daysAgo) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();
  const { id: albumId } = await env.DB.prepare(
    "INSERT INTO vault_albums (creator_id, name, created_at) VALUES (?, 'Beach set', ?) RETURNING id",
  )
    .bind(creatorId, at(3))
    .first();
  const shots = [
    [[0, 120, 180], [250, 220, 160], 21],
    [[255, 140, 90], [255, 230, 200], 22],
    [[20, 60, 120], [120, 200, 240], 23],
  ];
  const mediaIds = [];
  for (const [index, [from, to, seed]] of shots.entries()) {
    const photo = await putPostPhoto(env, from, to, seed);
    const { id } = await env.DB.prepare(
      "INSERT INTO media (user_id, purpose, kind, status, object_key, w640_key, content_type, size_bytes, width, height, created_at) VALUES (?, 'post', 'image', 'ready', ?, ?, 'image/png', 1, 800, 1000, ?) RETURNING id",
    )
      .bind(creatorId, photo.key, photo.w640Key, at(3 - index))
      .first();
    mediaIds.push(id);
  }
  const newestPostPhoto = await env.DB.prepare(
    "SELECT m.id FROM media m JOIN posts p ON p.id = m.post_id WHERE p.user_id = ? ORDER BY p.published_at DESC LIMIT 1",
  )
    .bind(creatorId)
    .first();
  if (newestPostPhoto) mediaIds.push(newestPostPhoto.id);
  await env.DB.batch(
    mediaIds.map((mediaId) =>
      env.DB.prepare("INSERT INTO vault_album_items (album_id, media_id, added_at) VALUES (?, ?, ?)").bind(
        albumId,
        mediaId,
        at(1),
      ),
    ),
  );
  console.log("Demo vault album created for @mia.rivers.");
}

async function putPostPhoto(env, from, to, seed) {
  const key = `posts/${randomBytes(16).toString("hex")}.png`;
  const w640Key = `scaled/640/${randomBytes(16).toString("hex")}.png`;
  await putPng(env, key, demoImage(800, 1000, from, to, seed));
  await putPng(env, w640Key, demoImage(640, 800, from, to, seed));
  return { key, w640Key };
}

/** A post's photo: a file of the creator's vault, used by the post (post_media). */
async function attachPhoto(env, creatorId, postId, photo, at) {
  const { id: mediaId } = await env.DB.prepare(
    "INSERT INTO media (user_id, kind, status, object_key, w640_key, content_type, size_bytes, width, height, created_at) VALUES (?, 'image', 'ready', ?, ?, 'image/png', 1, 800, 1000, ?) RETURNING id",
  )
    .bind(creatorId, photo.key, photo.w640Key, at)
    .first();
  await env.DB.prepare("INSERT INTO post_media (post_id, media_id, position) VALUES (?, ?, 0)")
    .bind(postId, mediaId)
    .run();
}

const putPng = (env, key, png) =>
  env.MEDIA.put(key, png.buffer.slice(png.byteOffset, png.byteOffset + png.byteLength), {
    httpMetadata: { contentType: "image/png" },
  });

const persistTo = parseArgs({ options: { "persist-to": { type: "string", default: ".wrangler/state" } } }).values[
  "persist-to"
];
const { env, dispose } = await getPlatformProxy({
  configPath: "wrangler.toml",
  persist: { path: join(persistTo, "v3") },
});
try {
  const existing = await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE email LIKE '%@demo.test'").first();
  let fresh = false;
  if (existing.n > 0) {
    console.log("Demo data already present.");
  } else {
    const now = new Date().toISOString();
    for (const account of DEMO_ACCOUNTS) {
      const avatarKey = `public/avatars/${account.username.replace(".", "-")}-${randomBytes(6).toString("hex")}.png`;
      await putPng(env, avatarKey, demoImage(256, 256, [40, 40, 80], [200, 120, 160], account.username.length));
      let coverKey = null;
      if (account.role === "creator") {
        coverKey = `public/covers/${randomBytes(8).toString("hex")}.png`;
        await putPng(env, coverKey, demoImage(1200, 400, [10, 60, 140], [255, 160, 120], 7));
      }
      const { id } = await env.DB.prepare(
        `INSERT INTO users (username, name, email, email_verified_at, password_hash, date_of_birth, account_type, role, bio, avatar_key, cover_key, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, '1995-04-12', ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      )
        .bind(
          account.username,
          account.name,
          account.email,
          now,
          hashPassword(account.password),
          account.accountType,
          account.role,
          account.role === "creator"
            ? "Photographer and traveller. Ocean views, golden hours and behind-the-scenes."
            : "",
          avatarKey,
          coverKey,
          now,
          now,
        )
        .first();
      if (account.role !== "creator") continue;
      // Approved creators start with a free monthly plan (as the admin approval does), plus a paid yearly one.
      await env.DB.prepare("UPDATE users SET monetization_enabled = 1 WHERE id = ?").bind(id).run();
      await env.DB.prepare(
        "INSERT INTO subscription_plans (creator_id, period, price_cents, updated_at) VALUES (?, 'month', 0, ?), (?, 'year', 4999, ?)",
      )
        .bind(id, now, id, now)
        .run();
      for (const [index, post] of POSTS.entries()) {
        const publishedAt = new Date(Date.now() - (POSTS.length - index) * 86_400_000).toISOString();
        const { id: postId } = await env.DB.prepare(
          "INSERT INTO posts (user_id, text, audience, price_cents, published_at, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
        )
          .bind(id, post.text, post.audience, post.priceCents ?? 0, publishedAt, publishedAt)
          .first();
        const photo = await putPostPhoto(env, post.colours[0], post.colours[1], index + 3);
        await attachPhoto(env, id, postId, photo, publishedAt);
      }
    }
    // The fan follows the creator (since before her first tip), so the demo feed opens on her posts rather than on
    // "Your feed is empty".
    await env.DB.prepare(
      "INSERT OR IGNORE INTO follows (follower_id, creator_id, created_at) SELECT f.id, c.id, ? FROM users f, users c WHERE f.username = 'demo_fan' AND c.username = 'mia.rivers'",
    )
      .bind(new Date(Date.now() - 13 * 86_400_000).toISOString())
      .run();
    await seedMoney();
    fresh = true;
    console.log("Demo data created:");
    for (const a of DEMO_ACCOUNTS) console.log(`  ${a.role.padEnd(8)} ${a.email} / ${a.password}  (@${a.username})`);
  }
  // The stream (two days ago) before the conversation (its paid message two days ago, its tip yesterday).
  await seedLive(env);
  await seedChat(env);
  await seedWelcomeMessage(env);
  await seedMassMessages(env);
  if (fresh) await seedTodaysTip();
  await seedStories(env);
  await seedNotifications(env);
  await seedBookmarks(env);
  await seedSecondCreator(env);
  await seedOffers(env);
  await seedFanLists(env);
  await seedVideoPost(env);
  await seedDevices(env);
  await seedVault(env);
} finally {
  await dispose();
}
