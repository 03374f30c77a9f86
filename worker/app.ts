import { Hono } from "hono";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { api } from "./api/app";
import { AppError } from "./domain/shared/errors";
import { message } from "@shared/messages";
import { asAppError, errorResponse } from "./http/errors";
import { csrfProtection, detectLanguage, newNonce, resolveSession, securityHeaders } from "./http/middleware";
import { serveMedia } from "./http/media";
import { downloadDataExport } from "./http/data-export-download";
import type { AppEnv } from "./http/types";
import { config, type Config, type Env } from "./env";
import { resendMailer, type Mailer } from "./domain/mail/mailer";
import { USER_CHANNEL_PATH } from "@shared/user-channel-events";
import { openChatRoom, openLiveRoom, openUserChannel } from "./realtime/route";

/** Renders a page: the Remix request handler in production, absent in the API-only worker tests. */
export type PageHandler = (request: Request, loadContext: AppLoadContext) => Promise<Response>;

/** What a Worker entry sets around the app; left out, production's. */
export interface AppOptions {
  /** The Remix build's version (`npm run dev` reloads open pages when it changes). */
  buildVersion?: string;
  /** How mail goes out: through Resend in production; a local run keeps it in its mailbox (worker/dev). */
  mailer?: (env: Env, settings: Config) => Mailer;
  /** Routes only a local run has (worker/dev/local-run.ts), behind the same middleware as the pages. */
  localRoutes?: (buildVersion: string) => Hono<AppEnv>;
}

export const resendMailerOf = (_env: Env, settings: Config) =>
  resendMailer(settings.RESEND_API_KEY ?? "", settings.MAIL_FROM);

/**
 * The Worker's router. Order matters: headers wrap everything; language, domain context and session are
 * resolved once per request and shared by the API and the Remix loaders; CSRF guards every write.
 */
export function createApp(renderPage: PageHandler | null, options: AppOptions = {}) {
  const { buildVersion = "none", mailer = resendMailerOf, localRoutes } = options;
  const app = new Hono<AppEnv>();

  app.use(securityHeaders);

  // Built assets are served before anything touches the database. Paths with a file extension only:
  // page routes never have one, and a username with a dot falls through to Remix on a miss.
  app.on(["GET", "HEAD"], "*", async (c, next) => {
    if (!/\.[a-z0-9]+$/i.test(c.req.path) || c.req.path.endsWith(".data")) return next();
    const asset = await c.env.ASSETS.fetch(c.req.raw);
    if (asset.status === 404) return next();
    if (c.req.path === "/sw.js") {
      // The service worker must be revalidated on every update check, or a new version could wait on a stale copy.
      const fresh = new Response(asset.body, asset);
      fresh.headers.set("Cache-Control", "no-cache");
      return fresh;
    }
    return asset;
  });

  app.use(async (c, next) => {
    c.set("mailer", mailer(c.env, config(c.env)));
    await next();
  });
  app.use(detectLanguage, resolveSession, csrfProtection);
  if (localRoutes) app.route("/", localRoutes(buildVersion));

  app.route("/api", api);
  app.all("/api/*", (c) => errorResponse(c, new AppError("not_found", message("Not found."))));
  app.get("/media/*", serveMedia);
  app.get("/account/export/:id/download", downloadDataExport);
  // The per-user real-time channel (worker/realtime): a WebSocket for the signed-in user.
  app.get(USER_CHANNEL_PATH, openUserChannel);
  // A conversation's ChatRoom (worker/realtime/chat-room.ts): messages, typing and read marks, for its members.
  app.get("/ws/conversations/:id", openChatRoom);
  app.get("/ws/live/:id", openLiveRoom);

  app.all("*", async (c) => {
    if (!renderPage) return c.text("Not found", 404);
    // Only a page has scripts of its own: its nonce goes in the CSP securityHeaders writes on the way out.
    const nonce = newNonce();
    c.set("nonce", nonce);
    return renderPage(c.req.raw, {
      cloudflare: { env: c.env, ctx: c.executionCtx },
      domain: c.get("domain"),
      session: c.get("session"),
      csrfToken: await c.get("csrfToken")(),
      nonce,
      language: c.get("language"),
      buildVersion,
      localRun: Boolean(localRoutes),
    });
  });

  app.onError((error, c) => {
    const appError = asAppError(error);
    if (appError) return errorResponse(c, appError);
    console.error(error);
    if (c.req.path.startsWith("/api/")) {
      return c.json({ message: c.get("domain")?.t("server error.") ?? "server error.", errors: {} }, 500);
    }
    return c.text("Server error", 500);
  });
  return app;
}
