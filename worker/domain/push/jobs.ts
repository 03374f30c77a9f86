import { z } from "zod";

/**
 * What a push is about, by reference: the payload is written when it is sent (push-payload.ts), in the
 * device's language and under the recipient's policy, so a queue message never carries private content.
 */
const PushTopicSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("message"), messageId: z.number().int().positive() }),
  z.object({ type: z.literal("notification"), notificationId: z.number().int().positive() }),
  z.object({ type: z.literal("post"), postId: z.number().int().positive() }),
  z.object({ type: z.literal("live"), streamId: z.number().int().positive() }),
  z.object({ type: z.literal("test") }),
]);
export type PushTopic = z.infer<typeof PushTopicSchema>;

/** One push to one device (a push_subscriptions row): the unit the Queue retries. */
export const PushJobSchema = z.object({ subscriptionId: z.number().int().positive(), topic: PushTopicSchema });
export type PushJob = z.infer<typeof PushJobSchema>;
