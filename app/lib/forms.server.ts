import { data, redirect, type AppLoadContext } from "@remix-run/cloudflare";
import type { z } from "zod";
import { parseOrThrow } from "@worker/domain/shared/validation";
import { BROKEN_TEXT } from "@shared/contracts/text";
import { AppError } from "@worker/domain/shared/errors";
import { INVALID_VALUE } from "@shared/messages";
import { asAppError, translateError } from "@worker/http/errors";
import { sessionCookie } from "@worker/http/cookies";
import { safeLocalPath } from "@shared/local-path";

export type FormResult =
  | { ok: false; message: string; errors: Record<string, string[]> }
  | { ok: true; message?: string; token?: string; redirectTo?: string };

/**
 * An urlencoded form is UTF-8 text, percent-encoded: bytes or escapes that are not UTF-8 would be read as U+FFFD
 * and stored so; they are refused instead (the API's JSON bodies likewise, worker/http/well-formed-text.ts).
 */
async function assertUtf8Form(request: Pick<Request, "headers" | "clone">): Promise<void> {
  if (!(request.headers.get("Content-Type") ?? "").startsWith("application/x-www-form-urlencoded")) return;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(await request.clone().arrayBuffer());
    for (const part of text.split("&")) decodeURIComponent(part.replaceAll("+", " "));
  } catch {
    throw new AppError("validation", BROKEN_TEXT);
  }
}

/** The submitted form; a body that is not a form at all is the sender's fault (422), not ours. */
async function formDataOf(request: Pick<Request, "formData" | "headers" | "clone">): Promise<FormData> {
  await assertUtf8Form(request);
  try {
    return await request.formData();
  } catch {
    throw new AppError("validation", INVALID_VALUE);
  }
}

/** The text fields of a submitted form, without the CSRF token. */
export async function readForm(request: Request): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  for (const [key, value] of await formDataOf(request))
    if (typeof value === "string" && key !== "_csrf") fields[key] = value;
  return fields;
}

/** Which button submitted a form with several actions (`name="intent"`), read without using the body up. */
export async function formIntent(request: Request): Promise<string | null> {
  const value = (await formDataOf(request.clone())).get("intent");
  return typeof value === "string" ? value : null;
}

/** Reads a submitted form into the same schema the API validates with. */
export async function parseForm<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  return parseOrThrow(schema, await readForm(request));
}

/**
 * Runs a form's work; what the user caused (AppError) comes back as translated field errors with its status,
 * anything else is a real failure and propagates.
 */
export async function handleForm<T>(context: AppLoadContext, work: () => Promise<T>) {
  try {
    return await work();
  } catch (error) {
    const appError = asAppError(error);
    if (!appError) throw error;
    const headers: HeadersInit = appError.retryAfterSeconds
      ? { "Retry-After": String(appError.retryAfterSeconds) }
      : {};
    return data<FormResult>(
      { ok: false, ...translateError(context.domain.t, appError) },
      { status: appError.status, headers },
    );
  }
}

/**
 * A successful sign-in: the session cookie for server renders, and the token for the page to keep in
 * localStorage (spec §1) before it moves on to `redirectTo`.
 */
export function signedIn(token: string, redirectTo: string) {
  return data<FormResult>(
    { ok: true, token, redirectTo },
    { headers: { "Set-Cookie": sessionCookie(token), "Cache-Control": "no-store" } },
  );
}

/**
 * Where a form posted by the browser itself (before the page's JavaScript runs, or without it) goes back to once
 * its action has worked: the page it was sent from (Referer, this site's only), else `fallback`. With JavaScript
 * the page sends the same action through the API and never comes here.
 */
export function backTo(request: Request, fallback: string): string {
  const referer = request.headers.get("Referer");
  if (!referer) return fallback;
  try {
    const from = new URL(referer);
    if (from.origin !== new URL(request.url).origin) return fallback;
    return safeLocalPath(`${from.pathname}${from.search}`, fallback);
  } catch {
    return fallback;
  }
}

/** Whether the browser itself posted the form (a page load: before the page's JavaScript runs, or without it). */
export const postedByTheBrowser = (request: Request) => request.headers.get("Sec-Fetch-Mode") === "navigate";

export function requireViewer(context: AppLoadContext, request: Request) {
  if (!context.session) {
    const url = new URL(request.url);
    throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return context.session;
}

/** For creator screens (dashboard, Go Live, stories): members are sent to the Become a creator screen. */
export function requireCreator(context: AppLoadContext, request: Request) {
  const session = requireViewer(context, request);
  if (session.user.role !== "creator") throw redirect("/becomeCreator");
  return session;
}

/** The loader of a creator screen that shows nothing private yet. */
export const creatorsOnly = ({ context, request }: { context: AppLoadContext; request: Request }) => {
  requireCreator(context, request);
  return null;
};
