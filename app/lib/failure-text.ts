import type { TFunction } from "i18next";
import { ApiError } from "~/lib/api";
import { isNetworkFailure } from "~/lib/offline-copies";

/**
 * What a failed request says beside the button that sent it: the server's own (translated) message; "You are
 * offline" when it never reached the server; else "Something went wrong". Likes, comments and messages made offline
 * wait in the outbox instead; this is for what does not (a deletion, a setting, a story).
 */
export function failureText(t: TFunction, failure: unknown): string {
  if (failure instanceof ApiError) return failure.body.message;
  return isNetworkFailure(failure) ? t("You are offline") : t("Something went wrong");
}
