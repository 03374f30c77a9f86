import type { Translate } from "../i18n";
import type { ZipFile } from "./zip-to-r2";

/** Rows read per statement: a page of JSON is small, and a person with years of messages is many pages. */
const PAGE_ROWS = 500;

const encoder = new TextEncoder();

async function* once(text: string): AsyncIterable<Uint8Array> {
  yield encoder.encode(text);
}

/**
 * The rows of one statement, page after page, keyset by the columns that order it: `statementFor`
 * gets the last row of the previous page (null for the first) and the page size.
 */
async function* pagesOf<T>(statementFor: (after: T | null, limit: number) => D1PreparedStatement): AsyncIterable<T[]> {
  let after: T | null = null;
  for (;;) {
    const { results }: D1Result<T> = await statementFor(after, PAGE_ROWS).all<T>();
    if (results.length > 0) yield results;
    if (results.length < PAGE_ROWS) return;
    after = results[results.length - 1]!;
  }
}

const indent = (text: string, by: string) => text.replaceAll("\n", `\n${by}`);

/**
 * A JSON file `{ ...head, "<field>": [rows] }` written as its pages are read, indented, so that it is readable and
 * never whole in memory.
 */
async function* jsonChunks<T>(
  head: Record<string, unknown>,
  field: string,
  pages: AsyncIterable<T[]>,
  present: (row: T) => unknown,
): AsyncIterable<Uint8Array> {
  const headText = Object.entries(head)
    .map(([name, value]) => `  ${JSON.stringify(name)}: ${indent(JSON.stringify(value, null, 2), "  ")},\n`)
    .join("");
  yield encoder.encode(`{\n${headText}  ${JSON.stringify(field)}: [`);
  let count = 0;
  for await (const page of pages) {
    const rows = page.map(
      (row) => `${count++ === 0 ? "" : ","}\n    ${indent(JSON.stringify(present(row), null, 2), "    ")}`,
    );
    yield encoder.encode(rows.join(""));
  }
  yield encoder.encode(`${count > 0 ? "\n  " : ""}]\n}\n`);
}

/** A file's extension from its R2 key; null for a key that is no R2 object (a video kept by Cloudflare Stream). */
const extensionOf = (key: string) => /\.([a-z0-9]+)$/i.exec(key)?.[1]?.toLowerCase() ?? null;
const mediaFileOf = (row: { id: number; object_key: string }) => {
  const extension = extensionOf(row.object_key);
  return extension ? `media/${row.id}.${extension}` : null;
};

async function* objectChunks(bucket: R2Bucket, key: string): AsyncIterable<Uint8Array> {
  const object = await bucket.get(key);
  if (!object) return;
  const reader = object.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

interface ProfileRow {
  id: number;
  username: string;
  name: string;
  email: string;
  email_verified_at: string | null;
  date_of_birth: string;
  account_type: string;
  role: string;
  bio: string;
  location: string;
  website: string;
  avatar_key: string | null;
  cover_key: string | null;
  message_price_cents: number;
  created_at: string;
}

interface MediaRow {
  id: number;
  kind: string;
  /** The posts using the file (a JSON array of ids): a vault file may be in several. */
  post_ids: string;
  story_id: number | null;
  object_key: string;
  content_type: string;
  size_bytes: number;
  width: number | null;
  height: number | null;
  duration_ms: number | null;
  created_at: string;
}

/**
 * What the person's export holds, file after file, each read when the ZIP gets to it: README.txt, one JSON file per
 * area, and their own photos and videos as uploaded. Only rows that are theirs (they wrote, sent, received, paid,
 * or hold the account of) are read; other people appear by username only. ID documents are left out: as on /media,
 * a signed-in session is not enough to read them back.
 */
export async function* exportFilesOf(
  env: { DB: D1Database; MEDIA: R2Bucket },
  userId: number,
  t: Translate,
): AsyncIterable<ZipFile> {
  const db = env.DB;
  const profile = await db
    .prepare(
      `SELECT id, username, name, email, email_verified_at, date_of_birth, account_type, role, bio, location, website,
              avatar_key, cover_key, message_price_cents, created_at
       FROM users WHERE id = ?`,
    )
    .bind(userId)
    .first<ProfileRow>();
  if (!profile) throw new Error(`data export: user ${userId} is gone`);
  const profileImages = (
    [
      ["avatar", profile.avatar_key],
      ["cover", profile.cover_key],
    ] as const
  ).flatMap(([name, key]) => {
    const extension = key ? extensionOf(key) : null;
    return key && extension ? [{ key, file: `profile/${name}.${extension}` }] : [];
  });

  yield { name: "README.txt", chunks: once(readmeOf(t, profile.username)) };

  const { results: plans } = await db
    .prepare("SELECT period, price_cents FROM subscription_plans WHERE creator_id = ? ORDER BY period")
    .bind(userId)
    .all<{ period: string; price_cents: number }>();
  const profileJson = {
    id: profile.id,
    username: profile.username,
    name: profile.name,
    email: profile.email,
    emailVerifiedAt: profile.email_verified_at,
    dateOfBirth: profile.date_of_birth,
    accountType: profile.account_type,
    role: profile.role,
    bio: profile.bio,
    location: profile.location,
    website: profile.website,
    avatarFile: profileImages.find(({ file }) => file.startsWith("profile/avatar."))?.file ?? null,
    coverFile: profileImages.find(({ file }) => file.startsWith("profile/cover."))?.file ?? null,
    messagePriceCents: profile.message_price_cents,
    subscriptionPlans: plans.map((plan) => ({ period: plan.period, priceCents: plan.price_cents })),
    createdAt: profile.created_at,
  };
  yield { name: "profile.json", chunks: once(`${JSON.stringify(profileJson, null, 2)}\n`) };

  type PostRow = {
    id: number;
    text: string;
    audience: string;
    price_cents: number;
    status: string;
    published_at: string | null;
    scheduled_at: string | null;
    edited_at: string | null;
    like_count: number;
    comment_count: number;
    created_at: string;
    media_ids: string;
  };
  yield {
    name: "posts.json",
    chunks: jsonChunks(
      {},
      "posts",
      pagesOf<PostRow>((after, limit) =>
        db
          .prepare(
            `SELECT p.id, p.text, p.audience, p.price_cents, p.status, p.published_at, p.scheduled_at, p.edited_at,
                    p.like_count, p.comment_count, p.created_at,
                    (SELECT json_group_array(x.media_id) FROM (SELECT media_id FROM post_media WHERE post_id = p.id ORDER BY position) x) AS media_ids
             FROM posts p WHERE p.user_id = ?1 AND p.id > ?2 ORDER BY p.id LIMIT ?3`,
          )
          .bind(userId, after?.id ?? 0, limit),
      ),
      (row) => ({
        id: row.id,
        text: row.text,
        audience: row.audience,
        priceCents: row.price_cents,
        status: row.status,
        publishedAt: row.published_at,
        scheduledAt: row.scheduled_at,
        editedAt: row.edited_at,
        likes: row.like_count,
        comments: row.comment_count,
        createdAt: row.created_at,
        mediaIds: JSON.parse(row.media_ids) as number[],
      }),
    ),
  };

  type CommentRow = { id: number; post_id: number; post_author: string; text: string; created_at: string };
  yield {
    name: "comments.json",
    chunks: jsonChunks(
      {},
      "comments",
      pagesOf<CommentRow>((after, limit) =>
        db
          .prepare(
            `SELECT c.id, c.post_id, u.username AS post_author, c.text, c.created_at
             FROM comments c JOIN posts p ON p.id = c.post_id JOIN users u ON u.id = p.user_id
             WHERE c.user_id = ?1 AND c.id > ?2 ORDER BY c.id LIMIT ?3`,
          )
          .bind(userId, after?.id ?? 0, limit),
      ),
      (row) => ({
        id: row.id,
        postId: row.post_id,
        postAuthor: row.post_author,
        text: row.text,
        createdAt: row.created_at,
      }),
    ),
  };

  type MessageRow = {
    id: number;
    conversation_id: number;
    seq: number;
    sender: string;
    sent: number;
    text: string;
    price_cents: number;
    paid_cents: number;
    media_count: number;
    created_at: string;
  };
  const { results: conversations } = await db
    .prepare(
      `SELECT cm.conversation_id AS id,
              (SELECT u.username FROM conversation_members o JOIN users u ON u.id = o.user_id
               WHERE o.conversation_id = cm.conversation_id AND o.user_id <> cm.user_id) AS with_user
       FROM conversation_members cm WHERE cm.user_id = ? ORDER BY cm.conversation_id`,
    )
    .bind(userId)
    .all<{ id: number; with_user: string | null }>();
  const withUser = new Map(conversations.map((row) => [row.id, row.with_user]));
  yield {
    name: "messages.json",
    chunks: jsonChunks(
      {},
      "messages",
      // In the order of the (conversation_id, seq) index: each page is a range of it, never a sort.
      pagesOf<MessageRow>((after, limit) =>
        db
          .prepare(
            `SELECT m.id, m.conversation_id, m.seq, s.username AS sender, m.sender_id = ?1 AS sent, m.text,
                    m.price_cents, m.paid_cents, m.media_count, m.created_at
             FROM messages m JOIN users s ON s.id = m.sender_id
             WHERE m.conversation_id IN (SELECT value FROM json_each(?2)) AND (m.conversation_id, m.seq) > (?3, ?4)
             ORDER BY m.conversation_id, m.seq LIMIT ?5`,
          )
          .bind(userId, JSON.stringify([...withUser.keys()]), after?.conversation_id ?? 0, after?.seq ?? 0, limit),
      ),
      (row) => ({
        id: row.id,
        conversationId: row.conversation_id,
        with: withUser.get(row.conversation_id) ?? null,
        direction: row.sent ? "sent" : "received",
        sender: row.sender,
        text: row.text,
        priceCents: row.price_cents,
        paidCents: row.paid_cents,
        mediaCount: row.media_count,
        createdAt: row.created_at,
      }),
    ),
  };

  type SubscriptionRow = {
    id: number;
    creator: string;
    period: string;
    price_cents: number;
    status: string;
    started_at: string;
    current_period_end: string;
    cancelled_at: string | null;
    ended_at: string | null;
  };
  yield {
    name: "subscriptions.json",
    chunks: jsonChunks(
      {},
      "subscriptions",
      pagesOf<SubscriptionRow>((after, limit) =>
        db
          .prepare(
            `SELECT s.id, c.username AS creator, s.period, s.price_cents, s.status, s.started_at, s.current_period_end,
                    s.cancelled_at, s.ended_at
             FROM subscriptions s JOIN users c ON c.id = s.creator_id
             WHERE s.fan_id = ?1 AND s.id > ?2 ORDER BY s.id LIMIT ?3`,
          )
          .bind(userId, after?.id ?? 0, limit),
      ),
      (row) => ({
        id: row.id,
        creator: row.creator,
        period: row.period,
        priceCents: row.price_cents,
        status: row.status,
        startedAt: row.started_at,
        currentPeriodEnd: row.current_period_end,
        cancelledAt: row.cancelled_at,
        endedAt: row.ended_at,
      }),
    ),
  };

  type PaymentRow = {
    id: number;
    kind: string;
    amount_cents: number;
    status: string;
    creator: string | null;
    post_id: number | null;
    subscription_id: number | null;
    note: string | null;
    provider: string | null;
    failure_reason: string | null;
    created_at: string;
    updated_at: string;
  };
  yield {
    name: "payments.json",
    chunks: jsonChunks(
      {},
      "payments",
      pagesOf<PaymentRow>((after, limit) =>
        db
          .prepare(
            `SELECT p.id, p.kind, p.amount_cents, p.status, c.username AS creator, p.post_id, p.subscription_id, p.note,
                    p.provider, p.failure_reason, p.created_at, p.updated_at
             FROM payments p LEFT JOIN users c ON c.id = p.creator_id
             WHERE p.user_id = ?1 AND p.id > ?2 ORDER BY p.id LIMIT ?3`,
          )
          .bind(userId, after?.id ?? 0, limit),
      ),
      (row) => ({
        id: row.id,
        kind: row.kind,
        amountCents: row.amount_cents,
        status: row.status,
        creator: row.creator,
        postId: row.post_id,
        subscriptionId: row.subscription_id,
        note: row.note,
        provider: row.provider,
        failureReason: row.failure_reason,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      }),
    ),
  };

  const { results: accounts } = await db
    .prepare("SELECT id, kind, balance_cents FROM ledger_accounts WHERE user_id = ? ORDER BY id")
    .bind(userId)
    .all<{ id: number; kind: string; balance_cents: number }>();
  type LedgerLineRow = {
    id: number;
    account: string;
    amount_cents: number;
    transfer_id: number;
    transfer_kind: string;
    created_at: string;
  };
  yield {
    name: "ledger.json",
    chunks: jsonChunks(
      { accounts: accounts.map((account) => ({ account: account.kind, balanceCents: account.balance_cents })) },
      "lines",
      pagesOf<LedgerLineRow>((after, limit) =>
        db
          .prepare(
            `SELECT e.id, a.kind AS account, e.amount_cents, t.id AS transfer_id, t.kind AS transfer_kind, t.created_at
             FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
             JOIN ledger_transfers t ON t.id = e.transfer_id
             WHERE e.account_id IN (SELECT value FROM json_each(?1)) AND e.id > ?2 ORDER BY e.id LIMIT ?3`,
          )
          .bind(JSON.stringify(accounts.map((account) => account.id)), after?.id ?? 0, limit),
      ),
      (row) => ({
        id: row.id,
        account: row.account,
        amountCents: row.amount_cents,
        transferId: row.transfer_id,
        kind: row.transfer_kind,
        createdAt: row.created_at,
      }),
    ),
  };

  const mediaPages = () =>
    pagesOf<MediaRow>((after, limit) =>
      db
        .prepare(
          `SELECT m.id, m.kind, (SELECT json_group_array(pm.post_id) FROM post_media pm WHERE pm.media_id = m.id) AS post_ids, (SELECT s.id FROM stories s WHERE s.media_id = m.id) AS story_id, m.object_key,
                  m.content_type, m.size_bytes, m.width, m.height, m.duration_ms, m.created_at
           FROM media m
           WHERE m.user_id = ?1 AND m.status = 'ready' AND m.purpose = 'post' AND m.id > ?2 ORDER BY m.id LIMIT ?3`,
        )
        .bind(userId, after?.id ?? 0, limit),
    );
  yield {
    name: "media.json",
    chunks: jsonChunks({}, "media", mediaPages(), (row) => ({
      id: row.id,
      file: mediaFileOf(row),
      kind: row.kind,
      postIds: JSON.parse(row.post_ids) as number[],
      storyId: row.story_id,
      contentType: row.content_type,
      sizeBytes: row.size_bytes,
      width: row.width,
      height: row.height,
      durationMs: row.duration_ms,
      createdAt: row.created_at,
    })),
  };

  for (const { key, file } of profileImages) yield { name: file, chunks: objectChunks(env.MEDIA, key) };
  for await (const page of mediaPages())
    for (const row of page) {
      const file = mediaFileOf(row);
      if (file) yield { name: file, chunks: objectChunks(env.MEDIA, row.object_key) };
    }
}

/** README.txt: what each file holds, in the language the person asked in. */
function readmeOf(t: Translate, username: string): string {
  const lines: [string, string][] = [
    ["profile.json", t("Your profile: name, username, email address, date of birth, bio and subscription prices.")],
    [
      "posts.json",
      t("Your posts with their text, audience, price and dates; mediaIds name their files in media.json."),
    ],
    ["comments.json", t("The comments you wrote, with the post they are on.")],
    ["messages.json", t("The messages you sent and received, by conversation, with who sent each one.")],
    ["subscriptions.json", t("The creators you subscribed to, with price, status and dates.")],
    ["payments.json", t("Your payments: top-ups, subscriptions, tips and purchases. Amounts are in cents.")],
    [
      "ledger.json",
      t("The balances of your wallet and earnings, and every line written to them in our books. Amounts are in cents."),
    ],
    ["media.json", t("Your photos and videos, with the post or story they belong to.")],
    ["media/", t("The files of your photos and videos, as you uploaded them, named after their id in media.json.")],
    ["profile/", t("Your profile picture and cover image.")],
  ];
  return [
    t("Your data on Fanclub (@{{username}})", { username }),
    "",
    t("Dates are in UTC (ISO 8601). Other people appear by their username only."),
    "",
    ...lines.map(([file, text]) => `${file}\n  ${text}`),
    "",
  ].join("\n");
}
