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
    expect(readFileSync(require.resolve("@remix-run/router/dist/router.cjs.js"), "utf8")).toContain("compilePath memoized (scripts/patch-remix-router.mjs)");
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
});
