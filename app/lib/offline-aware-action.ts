import type { ClientActionFunctionArgs } from "@remix-run/react";
import { pageT } from "~/i18n/meta";
import { isNetworkFailure } from "~/lib/offline-copies";

/**
 * A route's clientAction for its forms offline: the request never left, and the form says so beside its fields,
 * which keep what was typed; a form that moves money (`movesMoney`) says that nothing was charged. Without it the
 * failed request became the route's error and replaced the screen with "not saved on this device". Forms are never
 * queued for later (the outbox holds likes, comments and messages only).
 */
export const offlineAwareAction =
  (movesMoney: (form: FormData) => boolean) =>
  async ({ request, serverAction }: ClientActionFunctionArgs) => {
    const form = await request.clone().formData();
    try {
      return await serverAction();
    } catch (error) {
      if (!isNetworkFailure(error)) throw error;
      const message = movesMoney(form)
        ? "You are offline. Payments need a connection; nothing was charged."
        : "You are offline";
      return { ok: false as const, message: pageT(message), errors: {} };
    }
  };
