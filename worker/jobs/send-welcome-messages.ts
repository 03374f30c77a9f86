import { sendWelcomeMessages as sendDueWelcomeMessages } from "../domain/welcome-messages/send-welcome-messages";
import type { Job } from "./job";

/** Welcome messages of new subscriptions not sent right after their answer (a failure, a lost isolate). */
export const sendWelcomeMessages: Job = {
  name: "send-welcome-messages",
  run: async (ctx) => ({ sent: await sendDueWelcomeMessages(ctx) }),
};
