/**
 * The signed-in person's answers: who they are (/me, sign-in, sign-up) and the sidebar's indicators (/updates).
 * Written by worker/domain, documented by worker/api, checked by the page (app/lib/api-shapes.ts, generated from
 * these schemas). Then the body of clearing the Home dot. The page imports types only from here: a value import
 * would bring zod into its bundle.
 */
import { z } from "zod";

export const MeSchema = z
  .object({
    userId: z.number().int(),
    avatarUrl: z.string(),
    username: z.string(),
    isCreator: z.boolean(),
    isEmailVerified: z.boolean(),
  })
  .meta({ id: "Me" });
export type Me = z.infer<typeof MeSchema>;

export const AuthResultSchema = z.object({ token: z.string(), user: MeSchema }).meta({ id: "AuthResult" });

/** The four sidebar indicators of spec §3 ("updates summary"). */
export const UpdatesSchema = z
  .object({
    updates: z.object({
      home: z.boolean().meta({ description: "A followed creator posted since the user last opened /home" }),
      notifications: z.number().int().meta({ description: "Unread notifications, counted up to 100" }),
      messages: z.number().int().meta({ description: "Conversations with unread messages, counted up to 100" }),
      balance: z.boolean().meta({ description: "The wallet cannot cover the next subscription renewal" }),
    }),
  })
  .meta({ id: "Updates" });
export type Updates = z.infer<typeof UpdatesSchema>["updates"];

export const HomeSeenBodySchema = z
  .object({
    upTo: z.string().datetime().optional().meta({
      description: "When the newest post the screen holds was published; the dot stays lit for anything later",
    }),
  })
  .meta({ id: "HomeSeen" });
