import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createElement as h, type ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

// The files the Worker's bundle renders with, patched by scripts/patch-server-routes.mjs: RemixServer from
// @remix-run/react's ES module build and createStaticRouter from react-router-dom's CommonJS build (which that
// RemixServer's import of "react-router-dom/server" resolves to), with the route hooks of the same react-router.
const require = createRequire(import.meta.url);
const remixServerFile = require.resolve("@remix-run/react/dist/esm/server.js");
const { RemixServer } = (await import(
  remixServerFile
)) as typeof import("@remix-run/react");
const { createStaticHandler, createStaticRouter } =
  require("react-router-dom/server") as typeof import("react-router-dom/server");
const { useLoaderData, useMatches, Outlet } =
  require("react-router") as typeof import("react-router");

type Module = { default: ComponentType; handle?: unknown };

/** A build of three routes: root, `/a` and `/b`, each loader answering per request from the URL's `who`. */
function build(modules: { root: Module; a: Module; b: Module }) {
  const loaderOf =
    (id: string) =>
    ({ request }: { request: Request }) => ({
      id,
      who: new URL(request.url).searchParams.get("who"),
    });
  const handler = createStaticHandler([
    {
      id: "root",
      path: "/",
      loader: loaderOf("root"),
      children: [
        { id: "routes/a", path: "a", loader: loaderOf("a") },
        { id: "routes/b", path: "b", loader: loaderOf("b") },
      ],
    },
  ]);
  const entry = (id: string, parentId: string | undefined, path: string) => ({
    id,
    parentId,
    path,
    module: `/${id}.js`,
    hasLoader: true,
    hasAction: false,
    hasClientLoader: false,
    hasClientAction: false,
    hasErrorBoundary: false,
  });
  const manifest = {
    entry: { module: "/entry.client.js", imports: [] },
    url: "/manifest.js",
    version: "1",
    routes: {
      root: entry("root", undefined, "/"),
      "routes/a": entry("routes/a", "root", "a"),
      "routes/b": entry("routes/b", "root", "b"),
    },
  };
  /** What the server renders for `url`, as server-runtime's document request does: a context per request. */
  return async function render(
    url: string,
    routeModules = {
      root: modules.root,
      "routes/a": modules.a,
      "routes/b": modules.b,
    }
  ) {
    const staticHandlerContext = await handler.query(new Request(url));
    if (staticHandlerContext instanceof Response)
      throw new Error("unexpected response");
    const context = {
      manifest,
      routeModules: { ...routeModules },
      staticHandlerContext,
      future: {
        v3_fetcherPersist: false,
        v3_relativeSplatPath: false,
        v3_throwAbortReason: false,
        v3_routeConfig: false,
        v3_singleFetch: false,
        v3_lazyRouteDiscovery: false,
        unstable_optimizeDeps: false,
      },
      isSpaMode: false,
      serverHandoffString: "{}",
      serializeError: (error: Error) => ({ message: error.message }),
    };
    return renderToString(h(RemixServer, { context: context as never, url }));
  };
}

function Page() {
  const data = useLoaderData() as { id: string; who: string };
  const matches = useMatches();
  return h(
    "p",
    null,
    `${data.id} for ${data.who} (${matches.map((m) => m.id).join(" > ")})`
  );
}

describe("the server render's route objects, kept per build", () => {
  it("is the patched code: RemixServer's ES module build and react-router-dom's CommonJS server build", () => {
    expect(readFileSync(remixServerFile, "utf8")).toContain(
      "route objects kept per build (scripts/patch-server-routes.mjs)"
    );
    expect(
      readFileSync(require.resolve("react-router-dom/server"), "utf8")
    ).toContain(
      "data routes kept per routes array (scripts/patch-server-routes.mjs)"
    );
  });

  it("renders each request's own page and data from route objects built once", async () => {
    let handleReads = 0;
    const counted = (component: ComponentType): Module => ({
      default: component,
      get handle() {
        handleReads++; // read by the route objects' construction only, once per route
        return undefined;
      },
    });
    const render = build({
      root: counted(() => h("main", null, h(Outlet))),
      a: counted(Page),
      b: counted(Page),
    });

    expect(await render("https://fan.club/a?who=mia")).toBe(
      "<main><p>a for mia (root &gt; routes/a)</p></main>"
    );
    expect(handleReads).toBe(3);
    expect(await render("https://fan.club/b?who=leo")).toBe(
      "<main><p>b for leo (root &gt; routes/b)</p></main>"
    );
    expect(await render("https://fan.club/a?who=ana")).toBe(
      "<main><p>a for ana (root &gt; routes/a)</p></main>"
    );
    expect(handleReads).toBe(3);
  });

  it("builds them again for other route modules", async () => {
    const render = build({
      root: { default: () => h("main", null, h(Outlet)) },
      a: { default: Page },
      b: { default: Page },
    });
    expect(await render("https://fan.club/b?who=leo")).toBe(
      "<main><p>b for leo (root &gt; routes/b)</p></main>"
    );
    const other = {
      root: { default: () => h("main", null, h(Outlet)) },
      "routes/a": { default: Page },
      "routes/b": { default: () => h("em", null, "the new b") },
    };
    expect(await render("https://fan.club/b?who=leo", other)).toBe(
      "<main><em>the new b</em></main>"
    );
  });

  it("gives each static router the request's own state over the same data routes", async () => {
    const routes = [
      {
        id: "root",
        path: "/",
        loader: () => null,
        children: [{ id: "child", path: ":name", loader: () => null }],
      },
    ];
    const handler = createStaticHandler(routes);
    const first = await handler.query(new Request("https://fan.club/mia"));
    const second = await handler.query(new Request("https://fan.club/leo"));
    if (first instanceof Response || second instanceof Response)
      throw new Error("unexpected response");
    const one = createStaticRouter(routes, first);
    const two = createStaticRouter(routes, second);
    expect(two.routes).toBe(one.routes);
    expect(one.state.location.pathname).toBe("/mia");
    expect(two.state.location.pathname).toBe("/leo");
    expect(two.state.matches.at(-1)?.params).toEqual({ name: "leo" });
    expect(two.state.matches.at(-1)?.route).toBe(one.routes[0]!.children![0]);
    expect(createStaticRouter([...routes], first).routes).not.toBe(one.routes);
  });
});
