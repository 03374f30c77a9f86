import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { AppError, PriceChangedError, type FieldErrors } from "../domain/shared/errors";
import { INVALID_VALUE } from "@shared/messages";
import type { Translate } from "../domain/i18n";
import { message, varsOfMessage } from "@shared/messages";

export const TOO_LARGE = message("The request is too large.");
import type { AppEnv } from "./types";

/**
 * The API's one error shape: `{ message, errors: { field: [message] } }`, translated; a charge refused for a
 * changed price also says the current one (`priceCents`).
 */
export interface ErrorBody {
  message: string;
  errors: FieldErrors;
  priceCents?: number;
}

export function translateError(t: Translate, error: AppError): ErrorBody {
  const translate = (text: string) => t(text, { ...varsOfMessage(text), ...error.vars });
  // fromEntries, not assignment: a field named "__proto__" (an unknown key of a JSON body) stays a field.
  const errors: FieldErrors = Object.fromEntries(
    Object.entries(error.fieldErrors).map(([field, messages]) => [field, messages.map(translate)]),
  );
  const body: ErrorBody = { message: translate(error.message), errors };
  if (error instanceof PriceChangedError) body.priceCents = error.priceCents;
  return body;
}

/** Maps Hono's own 4xx (bad JSON, wrong content type, body too large) onto AppErrors. */
export function asAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (error instanceof HTTPException) {
    if (error.status === 413) return new AppError("too_large", TOO_LARGE);
    if (error.status === 415) return new AppError("validation", message("Send the request body as JSON."));
    if (error.status === 400) return new AppError("validation", message("The request body must be valid JSON."));
    if (error.status > 400 && error.status < 500) return new AppError("validation", INVALID_VALUE);
  }
  return null;
}

export function errorResponse(c: Context<AppEnv>, error: AppError) {
  if (error.retryAfterSeconds) c.header("Retry-After", String(error.retryAfterSeconds));
  return c.json(translateError(c.get("domain").t, error), error.status);
}
