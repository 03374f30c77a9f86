import { describe, expect, it } from "vitest";
import { lockOf, viewerFactsOf, type ViewerFacts } from "../../worker/domain/posts/access";
import { AUDIENCES, type Audience } from "@shared/contracts/posts";

const AUTHOR = 1;
const VIEWER = 2;
const nobody: ViewerFacts = { viewerId: VIEWER, follows: false, subscribed: false, purchased: false, blocked: false };
const post = (audience: Audience, priceCents = 0) => ({ authorId: AUTHOR, audience, priceCents });

describe("lockOf: who sees what", () => {
  it("knows the three audiences", () => {
    expect(AUDIENCES).toEqual(["everyone", "followers", "subscribers"]);
  });

  it.each([
    // audience, price, what the viewer has, the lock (worked out by hand from the access rules)
    ["everyone", 0, {}, null],
    ["everyone", 0, { viewerId: null }, null],
    ["everyone", 500, {}, "purchase"],
    ["everyone", 1, { follows: true, subscribed: true }, "purchase"],
    ["everyone", 500, { purchased: true }, null],
    ["followers", 0, {}, "follow"],
    ["followers", 0, { viewerId: null }, "follow"],
    ["followers", 0, { follows: true }, null],
    ["followers", 0, { subscribed: true }, null],
    ["followers", 500, {}, "follow"],
    ["followers", 500, { follows: true }, "purchase"],
    ["followers", 500, { subscribed: true }, "purchase"],
    ["followers", 500, { purchased: true }, null],
    ["subscribers", 0, {}, "subscribe"],
    ["subscribers", 0, { follows: true }, "subscribe"],
    ["subscribers", 0, { subscribed: true }, null],
    ["subscribers", 500, { subscribed: true }, "purchase"],
    ["subscribers", 500, { follows: true }, "subscribe"],
    ["subscribers", 500, { purchased: true }, null],
    ["everyone", 0, { blocked: true }, "hidden"],
    ["subscribers", 500, { blocked: true, subscribed: true, purchased: true }, "hidden"],
  ] as const)("a %s post at %i cents, viewer %j: %s", (audience, price, facts, lock) => {
    expect(lockOf(post(audience, price), { ...nobody, ...facts })).toBe(lock);
  });

  it("the author sees every own post, whatever the other facts say", () => {
    for (const audience of AUDIENCES)
      expect(lockOf(post(audience, 900), { ...nobody, viewerId: AUTHOR, blocked: true })).toBeNull();
  });
});

describe("viewerFactsOf", () => {
  it("reads SQLite's 1 as true and 0 as false, fact by fact", () => {
    const row = { v_follows: 1, v_subscribed: 0, v_purchased: 1, v_blocked: 0, v_liked: 1, v_bookmarked: 1 };
    expect(viewerFactsOf(VIEWER, row)).toEqual({
      viewerId: VIEWER,
      follows: true,
      subscribed: false,
      purchased: true,
      blocked: false,
    });
    const flipped = { v_follows: 0, v_subscribed: 1, v_purchased: 0, v_blocked: 1, v_liked: 0, v_bookmarked: 0 };
    expect(viewerFactsOf(null, flipped)).toEqual({
      viewerId: null,
      follows: false,
      subscribed: true,
      purchased: false,
      blocked: true,
    });
  });
});
