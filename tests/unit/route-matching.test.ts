import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type * as Router from "@remix-run/router";
import { describe, expect, it } from "vitest";

// The CommonJS build, as the Worker runs it (require resolves the package's "main").
const require = createRequire(import.meta.url);
const { matchPath, matchRoutes } = require("@remix-run/router") as typeof Router;

// scripts/patch-remix-router.mjs memoizes the router's compilePath by (pattern, caseSensitive, end): the same pattern
// asked with another option must not get the RegExp compiled for the first.
describe("route matching with the memoized compilePath", () => {
  it("is the patched router: its CommonJS build, the one wrangler bundles into the Worker", () => {
    expect(readFileSync(require.resolve("@remix-run/router/dist/router.cjs.js"), "utf8")).toContain("compilePath and matchRoutes memoized (scripts/patch-remix-router.mjs)");
  });

  it("keeps case sensitivity and `end` apart for the same pattern", () => {
    expect(matchPath({ path: "/Wallet", caseSensitive: true }, "/wallet")).toBeNull();
    expect(matchPath({ path: "/Wallet" }, "/wallet")?.pathname).toBe("/wallet");
    expect(matchPath({ path: "/Wallet", caseSensitive: true }, "/wallet")).toBeNull();

    expect(matchPath({ path: "/messages", end: false }, "/messages/12")?.pathnameBase).toBe("/messages");
    expect(matchPath({ path: "/messages" }, "/messages/12")).toBeNull();
    expect(matchPath({ path: "/messages", end: true }, "/messages/12")).toBeNull();
    expect(matchPath({ path: "/messages", end: false }, "/messages/12")?.pathnameBase).toBe("/messages");
  });

  it("gives each match its own params, also when asked again", () => {
    const first = matchPath("/:username/posts/:id?", "/mia.rivers/posts/7");
    const second = matchPath("/:username/posts/:id?", "/leo/posts");
    expect(first?.params).toEqual({ username: "mia.rivers", id: "7" });
    expect(second?.params).toEqual({ username: "leo", id: undefined });
    const routes = [{ path: "/", children: [{ path: "home" }, { path: ":username" }, { path: "messages/:id?" }] }];
    for (let round = 0; round < 2; round++) {
      expect(matchRoutes(routes, "/messages/4")?.map((m) => m.params)).toEqual([{ id: "4" }, { id: "4" }]);
      expect(matchRoutes(routes, "/home")?.at(-1)?.route.path).toBe("home");
    }
  });

  // matchRoutes' answers are kept per route array and location: a caller that changes what it got (a loader's
  // params) must not change what the next caller gets, and the location's basename counts.
  it("gives each caller its own matches and params when it answers from what it kept", () => {
    const routes = [{ id: "root", path: "/", children: [{ id: "profile", path: ":username" }, { id: "post", path: "post/:id" }] }];
    const first = matchRoutes(routes, "/mia.rivers")!;
    (first[1]!.params as Record<string, string>).username = "changed";
    first.pop();
    const second = matchRoutes(routes, "/mia.rivers")!;
    expect(second.map((m) => [m.route.id, m.params.username])).toEqual([["root", "mia.rivers"], ["profile", "mia.rivers"]]);
    expect(second[1]).not.toBe(first[1]);
    expect(second[1]!.route).toBe(routes[0]!.children[0]);
    expect(matchRoutes(routes, { pathname: "/post/7" })?.at(-1)?.params).toEqual({ id: "7" });
    expect(matchRoutes(routes, "/post/8")?.at(-1)?.params).toEqual({ id: "8" });
    expect(matchRoutes(routes, "/app/post/7", "/app")?.at(-1)?.route.id).toBe("post");
    expect(matchRoutes(routes, "/app/post/7")).toBeNull();
    expect(matchRoutes(routes, "/post/7/extra")).toBeNull();
    expect(matchRoutes(routes, "/post/7/extra")).toBeNull();
  });
});
