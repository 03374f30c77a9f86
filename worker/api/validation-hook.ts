import type { Context } from "hono";
import type { z } from "zod";
import { validationError } from "../domain/shared/validation";
import { invalidSignUpErrors } from "../domain/accounts/sign-up";
import { errorResponse } from "../http/errors";
import type { AppEnv } from "../http/types";

/** Every route's input failure answers 422 in the API's error shape. */
export function validationHook(result: { success: boolean; error?: z.ZodError }, c: Context<AppEnv>) {
  if (!result.success && result.error) return errorResponse(c, validationError(result.error));
}

/**
 * Sign-up's schema failures also say whether the username is taken, so a person fixes every problem in one pass;
 * never whether the email is (invalidSignUpErrors). (The validator hands hooks the raw body as `data` even when
 * parsing failed.)
 */
export async function signUpHook(result: { success: boolean; error?: z.ZodError }, c: Context<AppEnv>) {
  if (result.success || !result.error) return;
  const raw = (result as { data?: unknown }).data;
  return errorResponse(
    c,
    await invalidSignUpErrors(c.get("domain").db, raw, validationError(result.error).fieldErrors),
  );
}
