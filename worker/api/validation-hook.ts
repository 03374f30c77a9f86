import type { Context } from "hono";
import type { z } from "zod";
import { AppError } from "../domain/shared/errors";
import { validationError } from "../domain/shared/validation";
import { validateSignUp } from "../domain/accounts/sign-up";
import { asAppError } from "../http/errors";
import { errorResponse } from "../http/errors";
import type { AppEnv } from "../http/types";

/** Every route's input failure answers 422 in the API's error shape. */
export function validationHook(result: { success: boolean; error?: z.ZodError }, c: Context<AppEnv>) {
  if (!result.success && result.error) return errorResponse(c, validationError(result.error));
}

/**
 * Sign-up's schema failures also say which of the username and email are taken, so a person fixes every
 * problem in one pass. (The validator hands hooks the raw body as `data` even when parsing failed.)
 */
export async function signUpHook(result: { success: boolean; error?: z.ZodError }, c: Context<AppEnv>) {
  if (result.success || !result.error) return;
  const raw = (result as { data?: unknown }).data;
  const schemaError = validationError(result.error);
  try {
    await validateSignUp(c.get("domain").db, raw);
    return errorResponse(c, schemaError);
  } catch (error) {
    const appError = asAppError(error);
    if (!appError) throw error;
    // validateSignUp reads the body leniently; unknown fields are only in the strict schema's errors.
    return errorResponse(c, new AppError(appError.code, appError.message, { ...schemaError.fieldErrors, ...appError.fieldErrors }, appError.vars));
  }
}
