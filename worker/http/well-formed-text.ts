import { createMiddleware } from "hono/factory";
import { AppError, fieldError } from "../domain/shared/errors";
import { message } from "../domain/shared/messages";
import { BROKEN_TEXT, LONE_SURROGATE } from "../domain/shared/validation";
import { errorResponse } from "./errors";
import type { AppEnv } from "./types";

export const NOT_UTF8 = message("The request body must be UTF-8 text; this one has bytes that are not.");

/** The media types Hono's validator reads as JSON. */
const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The path of the first string (a value or a key) holding a lone surrogate, which no UTF-8 can carry; or null. */
export function brokenStringPath(value: Json, path: string[] = []): string[] | null {
  if (typeof value === "string") return LONE_SURROGATE.test(value) ? path : null;
  if (value === null || typeof value !== "object") return null;
  for (const [key, item] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const at = [...path, String(key)];
    if (typeof key === "string" && LONE_SURROGATE.test(key)) return at;
    const found = brokenStringPath(item, at);
    if (found) return found;
  }
  return null;
}

/**
 * A JSON body is text, and stored text must be what was sent: bytes that are not UTF-8, and a `\ud800` escape that
 * stands for half a character, are refused (422) instead of being stored as U+FFFD or as a string no UTF-8 can hold.
 * Malformed JSON is left to the route's validator, which says so.
 */
export const wellFormedJsonBody = createMiddleware<AppEnv>(async (c, next) => {
  const type = (c.req.header("Content-Type") ?? "").split(";")[0]!.trim();
  if (!c.req.raw.body || !JSON_TYPE.test(type)) return next();
  let text: string;
  try {
    // Hono keeps the bytes read here for the validator's own c.req.json().
    text = new TextDecoder("utf-8", { fatal: true }).decode(await c.req.arrayBuffer());
  } catch {
    return errorResponse(c, new AppError("validation", NOT_UTF8));
  }
  let body: Json;
  try {
    body = JSON.parse(text) as Json;
  } catch {
    return next();
  }
  const path = brokenStringPath(body);
  if (path) return errorResponse(c, fieldError(path.length > 0 ? path.join(".") : "body", BROKEN_TEXT));
  return next();
});
