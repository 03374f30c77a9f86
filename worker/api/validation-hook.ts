import type { Context } from "hono";
import type { z } from "zod";
import { validationError } from "../domain/shared/validation";
import { errorResponse } from "../http/errors";
import type { AppEnv } from "../http/types";

/** Every route's input failure answers 422 in the API's error shape. */
export function validationHook(result: { success: boolean; error?: z.ZodError }, c: Context<AppEnv>) {
  if (!result.success && result.error) return errorResponse(c, validationError(result.error));
}
