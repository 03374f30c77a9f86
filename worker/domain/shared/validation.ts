import { z } from "zod";
import { AppError, type FieldErrors } from "./errors";
import { INVALID_VALUE, isKnownMessage } from "@shared/messages";
import { idText } from "@shared/contracts/text";

/** The same rule for a route segment: the id, or null (the page answers 404). */
export function parseIdText(text: string | undefined | null): number | null {
  const result = idText.safeParse(text);
  return result.success ? result.data : null;
}

/**
 * Zod issues become field errors. A schema that names a message (our translation key) keeps it; every other
 * failure of a field reads "Invalid value", as spec §5 asks.
 */
export function toFieldErrors(error: z.ZodError): FieldErrors {
  // A Map, not an object literal: a field may be named "__proto__" (the key of a JSON body) or "constructor".
  const errors = new Map<string, string[]>();
  const add = (path: PropertyKey[], text: string) => {
    const field = path.length > 0 ? path.map(String).join(".") : "body";
    const list = errors.get(field) ?? [];
    if (!list.includes(text)) list.push(text);
    errors.set(field, list);
  };
  for (const issue of error.issues) {
    // A field the schema does not know (strict API bodies) is named itself, so the client sees which one.
    if (issue.code === "unrecognized_keys") for (const key of issue.keys) add([...issue.path, key], INVALID_VALUE);
    else add(issue.path, isKnownMessage(issue.message) ? issue.message : INVALID_VALUE);
  }
  return Object.fromEntries(errors);
}

export function validationError(error: z.ZodError): AppError {
  const fieldErrors = toFieldErrors(error);
  const first = Object.values(fieldErrors)[0]?.[0] ?? INVALID_VALUE;
  return new AppError("validation", first, fieldErrors);
}

export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(result.error);
  return result.data;
}
