import { createMiddleware } from "hono/factory";
import { AppError, fieldError } from "../domain/shared/errors";
import { message } from "@shared/messages";
import { BROKEN_TEXT, LONE_SURROGATE } from "@shared/contracts/text";
import { errorResponse } from "./errors";
import type { AppEnv } from "./types";

const NOT_UTF8 = message("The request body must be UTF-8 text; this one has bytes that are not.");

/** The media types Hono's validator reads as JSON. */
const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A value met while walking a body, with the way to it (kept as links: a path is built only for a hit). */
type Visit = { value: Json; key: string | null; parent: Visit | null };

const pathOf = (visit: Visit): string[] => {
  const path: string[] = [];
  for (let at: Visit | null = visit; at && at.key !== null; at = at.parent) path.push(at.key);
  return path.reverse();
};

/**
 * The path of the first string (a value or a key) holding a lone surrogate, which no UTF-8 can carry; or null.
 * A loop over an explicit stack, not recursion: JSON.parse takes nesting thousands deep, which would overflow it.
 */
export function brokenStringPath(value: Json): string[] | null {
  const stack: Visit[] = [{ value, key: null, parent: null }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { value: here } = visit;
    if (typeof here === "string") {
      if (LONE_SURROGATE.test(here)) return pathOf(visit);
      continue;
    }
    if (here === null || typeof here !== "object") continue;
    const entries = Array.isArray(here)
      ? here.map((item, index) => [String(index), item] as const)
      : Object.entries(here);
    for (const [key] of entries)
      if (!Array.isArray(here) && LONE_SURROGATE.test(key)) return pathOf({ value: null, key, parent: visit });
    // In reverse, so the first entry is looked at first.
    for (let index = entries.length - 1; index >= 0; index--)
      stack.push({ value: entries[index]![1], key: entries[index]![0], parent: visit });
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
