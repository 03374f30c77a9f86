import { z } from "zod";
import type { MassMessageJob } from "./domain/mass-messages/begin-mass-message";
import type { PushJob } from "./domain/push/jobs";
import type { DataExportJob } from "./domain/data-exports/jobs";
import type { ChatRoom } from "./realtime/chat-room";
import type { LiveRoom } from "./realtime/live-room";
import type { UserChannel } from "./realtime/user-channel";
import { DEFAULT_PUSH_SERVICE_HOSTS, isHostEntry, isPublicHostEntry } from "./domain/push/endpoints";
import { isSigningKeyText } from "./domain/media/stream/signing-key";

/** Bindings and variables the Worker receives; wrangler.toml declares them, README.md documents them. */
export interface Env {
  DB: D1Database;
  MEDIA: R2Bucket;
  ASSETS: Fetcher;
  /** One Durable Object per user, named `updates.{userId}`: the real-time channel (worker/realtime). */
  USER_CHANNEL: DurableObjectNamespace<UserChannel>;
  /** One Durable Object per conversation, named after its pair `chat.{low}-{high}`: the chat's sockets. */
  CHAT_ROOM: DurableObjectNamespace<ChatRoom>;
  /** One Durable Object per live stream, named `live.{streamId}`: its sockets, chat, tips and heartbeat. */
  LIVE_ROOM: DurableObjectNamespace<LiveRoom>;
  /** Mass messages, delivered in batches by this Worker's own consumer (worker/queues/mass-messages.ts). */
  MASS_MESSAGES: Queue<MassMessageJob>;
  /** Web push, one message per device to reach (worker/push/queue.ts). */
  PUSH: Queue<PushJob>;
  /** Data exports, one message per export: the ZIP built in R2 and the link mailed (worker/queues/data-exports.ts). */
  DATA_EXPORTS: Queue<DataExportJob>;
  APP_ENV?: string;
  APP_SECRET?: string;
  APP_URL?: string;
  MAIL_FROM?: string;
  RESEND_API_KEY?: string;
  RATE_LIMIT_SCALE?: string;
  SESSION_CACHE_SECONDS?: string;
  /** The platform's share of every creator earning, in percent (default 20). */
  PLATFORM_FEE_PERCENT?: string;
  /** Set: wallet top-ups go through Stripe Checkout; unset: the built-in sandbox card form. */
  STRIPE_SECRET_KEY?: string;
  /** The signing secret of the Stripe webhook endpoint (whsec_…); required with STRIPE_SECRET_KEY. */
  STRIPE_WEBHOOK_SECRET?: string;
  /** The VAPID key pair of web push (base64url: the raw P-256 public point, the private scalar d); unset: push is off. */
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
  /** Who push services may contact about our pushes: a mailto: or https: URL. */
  VAPID_SUBJECT?: string;
  /** The push services' hosts pushes may go to, comma-separated; `*.` names every host under one (default: the browsers'). */
  PUSH_SERVICE_HOSTS?: string;
  /** How live video travels: "p2p" (browser to browser, the default) or "whip" (WHIP/WHEP through an SFU). */
  LIVE_TRANSPORT?: string;
  /** p2p: the most people one stream is sent to (the creator's upload is the limit; default 8). */
  LIVE_P2P_MAX_VIEWERS?: string;
  /** ICE servers for the browsers (JSON: [{"urls":["stun:…"]}, …]); none by default (local networks, tests). */
  LIVE_ICE_SERVERS?: string;
  /** whip through Cloudflare Stream: the account and an API token with Stream Write (a live input per stream). */
  CF_ACCOUNT_ID?: string;
  CF_STREAM_API_TOKEN?: string;
  /** whip through any WHIP/WHEP server instead (a local one in tests): URL templates where {stream} is the id. */
  LIVE_WHIP_URL?: string;
  LIVE_WHEP_URL?: string;
  /** Where videos of posts, messages and stories go: "browser" (renditions made by the uploader, the default) or "stream". */
  VIDEO_PIPELINE?: string;
  /** stream: the customer-<code>.cloudflarestream.com subdomain's code, where signed manifests are played from. */
  CF_STREAM_CUSTOMER_CODE?: string;
  /** stream: the signing key made once with POST …/stream/keys: its id, and its pem or jwk as Stream answered (base64). */
  CF_STREAM_SIGNING_KEY_ID?: string;
  CF_STREAM_SIGNING_KEY?: string;
  /** stream: Cloudflare's API (default https://api.cloudflare.com/client/v4); the tests point it at a fake. */
  CF_STREAM_API_URL?: string;
  /** A local run's country, as Cloudflare's CF-IPCountry would say ("DE", or "US-CA" with a state) when the header is absent. */
  LOCAL_COUNTRY?: string;
}

/** base64url without padding of `bytes` bytes. */
const base64UrlOf = (bytes: number) => new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((bytes * 8) / 6)}}$`);

/** What VIDEO_PIPELINE=stream needs: the API (account, token), where videos play, and the key that signs them. */
const STREAM_SETTINGS = [
  "CF_ACCOUNT_ID",
  "CF_STREAM_API_TOKEN",
  "CF_STREAM_CUSTOMER_CODE",
  "CF_STREAM_SIGNING_KEY_ID",
  "CF_STREAM_SIGNING_KEY",
] as const;

const configSchema = z
  .object({
    APP_ENV: z.enum(["development", "test", "production"]).default("production"),
    APP_SECRET: z.string().min(32, "APP_SECRET must be at least 32 characters"),
    APP_URL: z.url().optional(),
    MAIL_FROM: z.string().min(3).default("Fanclub <no-reply@example.com>"),
    RESEND_API_KEY: z.string().optional(),
    RATE_LIMIT_SCALE: z.coerce.number().int().min(1).max(100_000).default(1),
    // How long a read (GET) may reuse a session this isolate read from D1 (worker/domain/auth/sessions.ts); 0: never.
    SESSION_CACHE_SECONDS: z.coerce.number().int().min(0).max(60).default(5),
    PLATFORM_FEE_PERCENT: z.coerce.number().min(0).max(100).default(20),
    STRIPE_SECRET_KEY: z.string().min(1).optional(),
    STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
    VAPID_PUBLIC_KEY: z
      .string()
      .regex(base64UrlOf(65), "must be the base64url of a 65-byte uncompressed P-256 point")
      .optional(),
    VAPID_PRIVATE_KEY: z
      .string()
      .regex(base64UrlOf(32), "must be the base64url of a 32-byte P-256 private key")
      .optional(),
    VAPID_SUBJECT: z
      .url()
      .refine(
        (url) => /^(mailto:[^@\s]+@[^@\s]+|https:\/\/.+)$/.test(url),
        "must be a mailto: address or an https: URL",
      )
      .optional(),
    PUSH_SERVICE_HOSTS: z
      .string()
      .transform((text, context) => {
        const hosts = text
          .split(",")
          .map((entry) => entry.trim().toLowerCase())
          .filter(Boolean);
        const bad = hosts.filter((entry) => !isHostEntry(entry));
        if (hosts.length === 0 || bad.length > 0) {
          context.addIssue({
            code: "custom",
            message: `must list host names like fcm.googleapis.com,*.push.apple.com${bad.length > 0 ? ` (not ${bad.join(", ")})` : ""}`,
          });
          return z.NEVER;
        }
        return hosts;
      })
      .default(DEFAULT_PUSH_SERVICE_HOSTS),
    LIVE_TRANSPORT: z.enum(["p2p", "whip"]).default("p2p"),
    LIVE_P2P_MAX_VIEWERS: z.coerce.number().int().min(1).max(100).default(8),
    LIVE_ICE_SERVERS: z
      .string()
      .transform((text, context) => {
        try {
          return z
            .array(
              z.object({
                urls: z.array(z.string().regex(/^(stun|turns?):/)),
                username: z.string().optional(),
                credential: z.string().optional(),
              }),
            )
            .parse(JSON.parse(text));
        } catch {
          context.addIssue({ code: "custom", message: 'must be JSON like [{"urls":["stun:stun.example.com:3478"]}]' });
          return z.NEVER;
        }
      })
      .default([]),
    CF_ACCOUNT_ID: z
      .string()
      .regex(/^[0-9a-f]{32}$/, "must be a 32-character account id")
      .optional(),
    CF_STREAM_API_TOKEN: z.string().min(1).optional(),
    LIVE_WHIP_URL: z
      .url()
      .refine((url) => url.includes("{stream}"), "must contain {stream}")
      .optional(),
    LIVE_WHEP_URL: z
      .url()
      .refine((url) => url.includes("{stream}"), "must contain {stream}")
      .optional(),
    VIDEO_PIPELINE: z.enum(["browser", "stream"]).default("browser"),
    LOCAL_COUNTRY: z
      .string()
      .regex(/^[A-Za-z]{2}(-[A-Za-z0-9]{1,3})?$/, "must be a country code such as DE, or US-CA")
      .optional(),
    CF_STREAM_CUSTOMER_CODE: z
      .string()
      .regex(/^[a-z0-9]+$/, "must be the <code> of customer-<code>.cloudflarestream.com")
      .optional(),
    CF_STREAM_SIGNING_KEY_ID: z
      .string()
      .regex(/^[A-Za-z0-9]{1,64}$/, "must be the id POST …/stream/keys answered")
      .optional(),
    CF_STREAM_SIGNING_KEY: z
      .string()
      .refine(
        isSigningKeyText,
        "must be the pem or the jwk POST …/stream/keys answered (base64), or the key it encodes",
      )
      .optional(),
    CF_STREAM_API_URL: z.url().default("https://api.cloudflare.com/client/v4"),
  })
  .refine((c) => new Set([c.VAPID_PUBLIC_KEY, c.VAPID_PRIVATE_KEY, c.VAPID_SUBJECT].map(Boolean)).size === 1, {
    message: "VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT are set together or not at all",
  })
  .refine((c) => c.APP_ENV === "test" || c.PUSH_SERVICE_HOSTS.every(isPublicHostEntry), {
    message: "PUSH_SERVICE_HOSTS may name only public hosts (no IP address, localhost or private name)",
  })
  .refine(
    (c) =>
      c.LIVE_TRANSPORT !== "whip" ||
      (Boolean(c.CF_ACCOUNT_ID) && Boolean(c.CF_STREAM_API_TOKEN)) ||
      (Boolean(c.LIVE_WHIP_URL) && Boolean(c.LIVE_WHEP_URL)),
    {
      message: "LIVE_TRANSPORT=whip needs CF_ACCOUNT_ID and CF_STREAM_API_TOKEN, or LIVE_WHIP_URL and LIVE_WHEP_URL",
    },
  )
  .check((context) => {
    const c = context.value;
    if (c.VIDEO_PIPELINE !== "stream") return;
    const missing = STREAM_SETTINGS.filter((name) => !c[name]);
    if (missing.length > 0)
      context.issues.push({
        code: "custom",
        input: c,
        message: `VIDEO_PIPELINE=stream needs CF_ACCOUNT_ID, CF_STREAM_API_TOKEN, CF_STREAM_CUSTOMER_CODE, CF_STREAM_SIGNING_KEY_ID and CF_STREAM_SIGNING_KEY (missing: ${missing.join(", ")})`,
      });
  })
  .refine((c) => c.APP_ENV === "test" || c.CF_STREAM_API_URL.startsWith("https://"), {
    message: "CF_STREAM_API_URL must be an https URL",
  })
  .refine((c) => !c.STRIPE_SECRET_KEY || Boolean(c.STRIPE_WEBHOOK_SECRET), {
    message: "STRIPE_SECRET_KEY needs STRIPE_WEBHOOK_SECRET",
  })
  // The production Worker sends mail through Resend; a local run's (worker/dev) keeps it in its mailbox.
  .refine((c) => c.APP_ENV !== "production" || Boolean(c.RESEND_API_KEY), {
    message: "APP_ENV=production needs RESEND_API_KEY",
  });

export type Config = z.infer<typeof configSchema>;

const cache = new WeakMap<object, Config>();

/**
 * Parses the environment once per isolate. A bad deployment configuration is an operator error, so it
 * throws with a message naming the variable rather than failing later in some request.
 */
export function config(env: Env): Config {
  let parsed = cache.get(env);
  if (!parsed) {
    const result = configSchema.safeParse(env);
    if (!result.success) {
      throw new Error(
        `Invalid configuration: ${result.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`,
      );
    }
    parsed = result.data;
    cache.set(env, parsed);
  }
  return parsed;
}

/** The VAPID keys when web push is configured; null: push is off (nothing is offered, nothing is sent). */
export function vapidOf(settings: Config): { publicKey: string; privateKey: string; subject: string } | null {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey, VAPID_SUBJECT: subject } = settings;
  return publicKey && privateKey && subject ? { publicKey, privateKey, subject } : null;
}
