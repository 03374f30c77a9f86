/**
 * Fan lists (a creator's alone): the lists the system keeps, always current, and the creator's own. A list is named
 * by a ListRef string everywhere (the list pages, a mass message's include and exclude): one of the system lists,
 * `top-spenders:<period>`, `buyers:<post|message|mass>:<id>`, or `custom:<id>`.
 */
import { z } from "zod";
import { message } from "../messages";
import { SubscriptionSchema } from "./subscriptions";
import { singleLineText } from "./text";

const INVALID_LIST = message("This list does not exist.");

/** The lists the system keeps, with no parameter. */
export const SYSTEM_LISTS = ["subscribers", "expired", "followers", "tippers", "trial"] as const;
/** Top spenders' periods, in days ("all": ever). */
export const SPENDER_PERIODS = ["7", "30", "90", "365", "all"] as const;
/** What a "buyers" list is of: a post, one message, or a mass message (every copy of it). */
const BOUGHT_KINDS = ["post", "message", "mass"] as const;

const LIST_REF = new RegExp(
  `^(?:${SYSTEM_LISTS.join("|")}|top-spenders:(?:${SPENDER_PERIODS.join("|")})|buyers:(?:${BOUGHT_KINDS.join("|")}):[1-9]\\d{0,15}|custom:[1-9]\\d{0,15})$`,
);

export const ListRefSchema = z.string({ message: INVALID_LIST }).regex(LIST_REF, { message: INVALID_LIST });
export type ListRef = z.infer<typeof ListRefSchema>;

/** The parts of a ListRef, for code that branches on its kind. */
export type ParsedListRef =
  | { kind: (typeof SYSTEM_LISTS)[number] }
  | { kind: "top-spenders"; period: (typeof SPENDER_PERIODS)[number] }
  | { kind: "buyers"; of: (typeof BOUGHT_KINDS)[number]; id: number }
  | { kind: "custom"; id: number };

export function parseListRef(ref: ListRef): ParsedListRef {
  const [kind, a, b] = ref.split(":");
  if (kind === "top-spenders") return { kind, period: a as (typeof SPENDER_PERIODS)[number] };
  if (kind === "buyers") return { kind, of: a as (typeof BOUGHT_KINDS)[number], id: Number(b) };
  if (kind === "custom") return { kind, id: Number(a) };
  return { kind: kind as (typeof SYSTEM_LISTS)[number] };
}

/** One list as GET /api/lists answers it: the system lists first (named by the page from `ref`), then custom ones. */
export const FanListSummarySchema = z
  .object({
    ref: z.string().meta({ description: "The ListRef: what list pages and mass messages take" }),
    kind: z.enum(["system", "custom"]),
    name: z.string().nullable().meta({ description: "A custom list's name; null for a system list" }),
    count: z.number().int().meta({ description: "Fans in it now" }),
  })
  .meta({ id: "FanListSummary" });
export type FanListSummary = z.infer<typeof FanListSummarySchema>;

export const FanListsSchema = z.object({ lists: z.array(FanListSummarySchema) }).meta({ id: "FanLists" });
export type FanLists = z.infer<typeof FanListsSchema>;

const LIST_NAME_REQUIRED = message("Give the list a name.");
const LIST_NAME_TOO_LONG = message("A list's name has at most {{max}} characters.");
/** The longest name of a custom list. */
const LIST_NAME_MAX = 50;

/** POST /api/lists and PATCH /api/lists/{id}: a custom list's name. */
export const FanListBodySchema = z
  .object({
    name: singleLineText()
      .trim()
      .min(1, { message: LIST_NAME_REQUIRED })
      .max(LIST_NAME_MAX, { message: LIST_NAME_TOO_LONG }),
  })
  .meta({ id: "FanListBody" });
export type FanListBody = z.infer<typeof FanListBodySchema>;

const INVALID_POSITION = message("This list position is not valid. Reload the page.");
/**
 * The position after which a list page goes on: the last fan's id, and for top spenders what they spent first
 * ("{spentCents}.{userId}"), as the page answered it.
 */
const ListCursorSchema = z
  .string()
  .regex(/^(?:\d{1,15}\.)?[1-9]\d{0,15}$/, { message: INVALID_POSITION })
  .optional();

/** GET /api/lists/{ref}/fans: a search (username or name) and the position. */
export const ListedFansQuerySchema = z.object({
  q: singleLineText().trim().max(60).optional(),
  cursor: ListCursorSchema,
});

/** One fan in a list, as the creator sees them. */
const ListedFanSchema = z
  .object({
    userId: z.number().int(),
    username: z.string(),
    name: z.string(),
    avatarUrl: z.string(),
    spentCents: z
      .number()
      .int()
      .meta({ description: "What they paid the creator: ever, or within the period of a top spenders list" }),
    lastActiveAt: z.string().nullable().meta({ description: "When one of their sessions was last used" }),
  })
  .meta({ id: "ListedFan" });
export type ListedFan = z.infer<typeof ListedFanSchema>;

/** A keyset page of one list: by fan, newest account first; top spenders by what they spent. */
export const ListedFanPageSchema = z
  .object({
    fans: z.array(ListedFanSchema),
    nextCursor: z.string().nullable().meta({ description: "Pass back as `cursor` for the next page; null at the end" }),
  })
  .meta({ id: "ListedFanPage" });
export type ListedFanPage = z.infer<typeof ListedFanPageSchema>;

/** The creator's custom lists, each saying whether it holds one fan (an "Add to list" menu). */
export const FanMembershipsSchema = z
  .object({
    lists: z.array(z.object({ id: z.number().int(), name: z.string(), member: z.boolean() })),
  })
  .meta({ id: "FanMemberships" });
export type FanMemberships = z.infer<typeof FanMembershipsSchema>;

/** What a fan spent with the creator, by kind, in cents. */
const FanSpendingSchema = z
  .object({
    subscriptionsCents: z.number().int().meta({ description: "Subscriptions and their renewals (gifts included)" }),
    tipsCents: z.number().int().meta({ description: "Tips, also those sent in a live stream" }),
    postsCents: z.number().int(),
    messagesCents: z.number().int(),
    liveCents: z.number().int().meta({ description: "Entry to live streams" }),
    totalCents: z.number().int(),
  })
  .meta({ id: "FanSpending" });

/** One fan as their creator sees them: their subscription, their spending and their conversation. */
export const FanDetailSchema = z
  .object({
    userId: z.number().int(),
    username: z.string(),
    name: z.string(),
    avatarUrl: z.string(),
    subscription: SubscriptionSchema.nullable().meta({
      description: "The live subscription, else the latest one; null if they never subscribed",
    }),
    following: z.boolean(),
    spending: FanSpendingSchema,
    lastActiveAt: z.string().nullable(),
    conversationId: z.number().int().nullable().meta({ description: "Their chat with the creator, if any" }),
  })
  .meta({ id: "FanDetail" });
export type FanDetail = z.infer<typeof FanDetailSchema>;
