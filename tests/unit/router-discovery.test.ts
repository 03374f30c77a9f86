import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type * as Router from "@remix-run/router";
import { describe, expect, it } from "vitest";

// The ES module build, as Vite bundles it for the browser, patched by scripts/patch-router-discovery.mjs: routes
// found by the lazy route discovery after the hydration are added without a router state update of their own (which
// would render the whole page again), and are there for the next navigation.
const require = createRequire(import.meta.url);
const browserBuild = require.resolve("@remix-run/router/dist/router.js");
const { createMemoryHistory, createRouter } = (await import(browserBuild)) as typeof Router;

/** A router on `/a` of a tree with root, `/a` and a loader on each, and every state it publishes from now on. */
function routerOnA() {
  const router = createRouter({
    routes: [{ id: "root", path: "/", loader: () => "root", children: [{ id: "a", path: "a", loader: () => "a" }] }],
    history: createMemoryHistory({ initialEntries: ["/a"] }),
    hydrationData: { loaderData: { root: "root", a: "a" } },
  }).initialize();
  const published: Router.RouterState[] = [];
  router.subscribe((state) => published.push(state));
  return { router, published };
}

describe("routes discovered after the hydration", () => {
  it("is the patched router: its ES module build, the one the browser gets", () => {
    expect(readFileSync(browserBuild, "utf8")).toContain("a discovery's patch renders nothing by itself (scripts/patch-router-discovery.mjs)");
  });

  it("are added with a new route array and no state update: the page is not rendered again", () => {
    const { router, published } = routerOnA();
    const before = router.routes;
    const state = router.state;
    router.patchRoutes("root", [{ id: "b", path: "b", loader: () => "b" }]);
    expect(published).toEqual([]);
    expect(router.state).toBe(state);
    // What React reads from `router.routes` at its next render is matched anew.
    expect(router.routes).not.toBe(before);
    expect(router.routes[0]?.children?.map((route) => route.id)).toEqual(["a", "b"]);
  });

  it("are there for the next navigation, which publishes its states as always", async () => {
    const { router, published } = routerOnA();
    router.patchRoutes("root", [{ id: "b", path: "b", loader: () => "b" }]);
    published.length = 0;
    await router.navigate("/b");
    expect(router.state.location.pathname).toBe("/b");
    expect(router.state.matches.map((match) => match.route.id)).toEqual(["root", "b"]);
    expect(router.state.loaderData.b).toBe("b");
    expect(published.map((state) => state.navigation.state)).toEqual(["loading", "idle"]);
  });
});
