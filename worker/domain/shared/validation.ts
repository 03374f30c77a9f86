import type { z } from "zod";
import { AppError, INVALID_VALUE, type FieldErrors } from "./errors";
import { isKnownMessage } from "./messages";

export { message } from "./messages";

/**
 * Zod issues become field errors. A schema that names a message (our translation key) keeps it; every other
 * failure of a field reads "Invalid value", as spec §5 asks.
 */
export function toFieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "body";
    const text = isKnownMessage(issue.message) ? issue.message : INVALID_VALUE;
    const list = (errors[field] ??= []);
    if (!list.includes(text)) list.push(text);
  }
  return errors;
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
