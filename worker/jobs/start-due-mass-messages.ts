import { startDueMassMessages } from "../domain/mass-messages/start-due-mass-messages";
import { enqueueMassMessage } from "../queues/mass-messages";
import type { Job } from "./job";

/** Scheduled mass messages whose time has come start going, each exactly once, through the Queue. */
export const startScheduledMassMessages: Job = {
  name: "start-scheduled-mass-messages",
  run: async (ctx) => ({ started: (await startDueMassMessages(ctx, enqueueMassMessage(ctx.env))).length }),
};
