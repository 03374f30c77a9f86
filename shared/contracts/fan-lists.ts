/**
 * Fan lists (a creator's alone): the lists the system keeps, always current, and the creator's own. A list is named
 * by a ListRef string everywhere (the list pages, a mass message's include and exclude): one of the system lists,
 * `top-spenders:<period>`, `buyers:<post|message|mass>:<id>`, or `custom:<id>`.
 */
import { z } from "zod";
import { message } from "../messages";

const INVALID_LIST = message("This list does not exist.");

/** The lists the system keeps, with no parameter. */
export const SYSTEM_LISTS = ["subscribers", "expired", "followers", "tippers", "trial"] as const;
/** Top spenders' periods, in days ("all": ever). */
export const SPENDER_PERIODS = ["7", "30", "90", "365", "all"] as const;
/** What a "buyers" list is of: a post, one message, or a mass message (every copy of it). */
export const BOUGHT_KINDS = ["post", "message", "mass"] as const;

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
