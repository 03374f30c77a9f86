import { z } from "@hono/zod-openapi";
import { ErrorSchema } from "@shared/contracts/common";
import { decodeCursor } from "../domain/shared/cursor";
import { message } from "@shared/messages";
import { idText, singleLineText } from "@shared/contracts/text";

/**
 * What the routes' OpenAPI descriptions share: error responses, the JSON wrappers, path and query parameters. The
 * answers themselves are described once, under shared/contracts.
 */

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: ErrorSchema } },
});

/** The error responses each kind of route can give, for the OpenAPI document. */
export const errorResponses = {
  401: errorResponse("Not signed in, or the session has ended"),
  402: errorResponse('The wallet cannot cover the payment: "You need to fund your wallet!"'),
  403: errorResponse("Forbidden, or a link that is invalid or has expired"),
  409: errorResponse(
    "The state changed: already done, another request is open, or the price shown is no longer the price (priceCents: the current one)",
  ),
  413: errorResponse("Request body over 64 KiB"),
  415: errorResponse("Body not sent as application/json"),
  422: errorResponse("Invalid input; `errors` names each field"),
  429: errorResponse("Too many attempts; see Retry-After"),
} as const;

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** Unknown or suspended user, another person's item, or one the caller may not see. */
export const e404 = errorResponse("Not found, or not visible to the caller");

/**
 * A JSON body is exactly what the schema names: an unknown field is a 422 ("Invalid value" under its name),
 * not silently dropped, so a misspelt optional field cannot pass unnoticed. The body schemas
 * themselves (shared/contracts) stay lenient because form actions parse them from forms that also carry their
 * buttons' `intent`.
 */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { "application/json": { schema: strictly(schema) } },
});

/** The schema with every object in it (nested ones, array items, union members) refusing unknown keys. */
function strictly<T extends z.ZodType>(schema: T): T {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const clone = (changes: Record<string, unknown>) => {
    const copy = schema.clone({ ...def, ...changes } as never) as T;
    // Metadata lives in zod's registry, keyed by the schema itself: the copy keeps what the document shows (its
    // description, examples), not the id, which names one schema only.
    const meta = { ...z.globalRegistry.get(schema) };
    delete meta.id;
    return Object.keys(meta).length > 0 ? (copy.meta(meta) as T) : copy;
  };
  switch (def.type) {
    case "object": {
      const shape = Object.fromEntries(
        Object.entries(def.shape as Record<string, z.ZodType>).map(([key, field]) => [key, strictly(field)]),
      );
      return clone({ shape, catchall: z.never() });
    }
    case "array":
      return clone({ element: strictly(def.element as z.ZodType) });
    case "optional":
    case "nullable":
    case "default":
      return clone({ innerType: strictly(def.innerType as z.ZodType) });
    case "union":
      return clone({ options: (def.options as z.ZodType[]).map(strictly) });
    default:
      return schema;
  }
}

/** `{id}` in a path: see idText (digits only, 1 to Number.MAX_SAFE_INTEGER). */
export const IdParams = z.object({ id: idText });

/** `{username}` in a path: compared lowercase like the stored usernames. */
export const UsernameParams = z.object({
  username: singleLineText()
    .min(1)
    .max(64)
    .transform((name) => name.toLowerCase()),
});

/** An optional numeric keyset cursor (the last id shown) in the query. */
export const idCursorQuery = (field: string) => z.object({ [field]: idText.optional() });

const INVALID_CURSOR = message("This list position is not valid. Reload the page.");

/** An optional opaque cursor in the query: decoded, or a 422 before anything is read. */
export const cursorQuery = (field: string) =>
  z
    .string()
    .max(200)
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === "") return null;
      const cursor = decodeCursor(value);
      if (!cursor) ctx.addIssue({ code: "custom", message: INVALID_CURSOR, path: [field] });
      return cursor;
    });
