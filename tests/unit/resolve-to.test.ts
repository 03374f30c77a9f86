import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type * as Router from "@remix-run/router";
import { createElement, Fragment } from "react";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";

// As the Worker runs them: the router's CommonJS build and react-router's production UMD build
// (scripts/patch-resolve-to.mjs patches both; the browser's ES module builds are as published).
const require = createRequire(import.meta.url);
const { parsePath, resolveTo } = require("@remix-run/router") as typeof Router;
const ROUTER_FILE = require.resolve("@remix-run/router/dist/router.cjs.js");
const HOOK_FILE = require.resolve("react-router/dist/umd/react-router.production.min.js");
const ReactRouter = require(HOOK_FILE) as typeof import("react-router");
const SERVER_FILE = require.resolve("react-router-dom/server.js");
const { createStaticRouter } = require(SERVER_FILE) as typeof import("react-router-dom/server");

afterEach(() => vi.restoreAllMocks());

describe("links' paths resolved without the route matches when they are absolute", () => {
  it("are the patched builds", () => {
    expect(readFileSync(ROUTER_FILE, "utf8")).toContain("absolute paths without dot segments resolved as they are (scripts/patch-resolve-to.mjs)");
    expect(readFileSync(HOOK_FILE, "utf8")).toContain("no route matches as JSON for an absolute path (scripts/patch-resolve-to.mjs)");
    expect(readFileSync(SERVER_FILE, "utf8")).toContain("a plain path is its own encoding (scripts/patch-resolve-to.mjs)");
  });

  it("resolveTo answers every absolute path as its walk does (the walk is what a parsed path takes)", () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const alphabet = ["a", "b", "mia", "/", "/", ".", "..", "?", "#", "-", "\\", "%20", "_"];
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const paths = ["/", "/home", "/a/", "/post/12#comments", "/a//b", "/a/./b", "/a/../b", "/a/..", "/.", "/mia.rivers", "/..x/", "/search?q=x", "/s?#", "/s#a?b", "/x\\y"];
    for (let n = 0; n < 3000; n++) paths.push("/" + Array.from({ length: 1 + Math.floor(random() * 8) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(""));
    for (const path of paths) {
      for (const [routePathnames, location] of [
        [["/"], "/"],
        [["/", "/messages/4"], "/messages/4/"],
      ] as const) {
        expect(resolveTo(path, [...routePathnames], location), path).toEqual(resolveTo(parsePath(path), [...routePathnames], location));
      }
    }
  });

  it("useResolvedPath still resolves relative paths from the route, and absolute ones as they are", () => {
    // MemoryRouter's layout effect, which the server render cannot run, is all React warns about.
    vi.spyOn(console, "error").mockImplementation(() => {});
    const Show = ({ to }: { to: string }) => {
      const { pathname, search, hash } = ReactRouter.useResolvedPath(to);
      return createElement("i", null, pathname + search + hash);
    };
    const tos = ["/home", "..", "edit", "?q=1", "#top", "/a/./b", "/mia.rivers/posts"];
    const html = renderToString(
      createElement(
        ReactRouter.MemoryRouter,
        { initialEntries: ["/messages/4"] },
        createElement(
          ReactRouter.Routes,
          null,
          createElement(ReactRouter.Route, { path: "/messages/:id", element: createElement(Fragment, null, ...tos.map((to) => createElement(Show, { to, key: to }))) }),
        ),
      ),
    );
    expect([...html.matchAll(/<i>([^<]*)<\/i>/g)].map((match) => match[1])).toEqual(["/home", "/", "/messages/4/edit", "/messages/4?q=1", "/messages/4#top", "/a/b", "/mia.rivers/posts"]);
  });

  it("the static router encodes every path as the URL parser does (its shortcut skips the parser for plain ones)", () => {
    const context = { basename: "/", location: { pathname: "/", search: "", hash: "", state: null, key: "default" }, matches: [], loaderData: {}, actionData: null, errors: null, statusCode: 200, loaderHeaders: {}, actionHeaders: {}, activeDeferreds: null };
    const { encodeLocation } = createStaticRouter([], context as unknown as Parameters<typeof createStaticRouter>[1]);
    // What encodeLocation did before the patch, and still does for anything but a plain path.
    const byParser = (href: string) => {
      const padded = href.replace(/ $/, "%20");
      const url = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(padded) ? new URL(padded) : new URL(padded, "http://localhost");
      return { pathname: url.pathname, search: url.search, hash: url.hash };
    };
    const outcome = (encode: () => unknown) => {
      try {
        return encode();
      } catch (error) {
        return `throws ${(error as Error).name}`;
      }
    };
    const alphabet = ["a", "Z", "mia", "/", "/", ".", "..", "?", "#", "-", "\\", "%", "%2e", "%20", " ", "'", '"', "<", "`", "{", "é", "~", "@", ":", "=", "&", "+", "(", "!", "*"];
    let seed = 11;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const paths = ["/", "/home", "/settings/", "/post/12#comments", "/a//b", "//a", "/a/./b", "/a/..", "/.", "/..", "/.x", "/mia.rivers", "/search?q=x", "/s?", "/s#", "/s?#", "/s#a?b", "/s?a?b#c#d", "/x\\y", "/a b", "/a "];
    for (let n = 0; n < 5000; n++) paths.push("/" + Array.from({ length: 1 + Math.floor(random() * 8) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(""));
    let plain = 0;
    for (const path of paths) {
      expect(outcome(() => encodeLocation!(path)), path).toEqual(outcome(() => byParser(path)));
      expect(outcome(() => encodeLocation!(parsePath(path))), path).toEqual(outcome(() => byParser(path)));
      if (/^\/[\w/-]*$/.test(path) && !/\/\.|^\/\//.test(path)) plain++;
    }
    // The shortcut's own paths are among them: the app's links, and enough random ones.
    expect(plain).toBeGreaterThan(100);
  });
});
