import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

// scripts/patch-wrangler-proxy.mjs: the proxy `wrangler dev` puts in front of the app's Worker asks it for answers
// uncompressed (its own miniflare compresses once for the client), and runs HTMLRewriter over an HTML answer only
// when that can change it (live reload on, or a status 400). The class is driven here as wrangler's proxy process
// drives it: the controller's "play" with the Worker's address, then a client's request, passed on with `fetch`.
const require = createRequire(import.meta.url);
const file = join(dirname(require.resolve("wrangler/package.json")), "wrangler-dist", "ProxyWorker.js");

interface Proxy {
  fetch(request: Request): Promise<Response> | Response;
}

const SECRET = "controller-secret";
const HTML = "<!DOCTYPE html><html><body><p>Home</p></body></html>";

/** A request as workerd gives it to the proxy: miniflare's entry puts the client's Accept-Encoding in `cf`. */
const incoming = (url: string, init: RequestInit, cf: Record<string, unknown>) => Object.assign(new Request(url, init), { cf });

async function startedProxy(liveReload: boolean): Promise<Proxy> {
  const { ProxyWorker } = (await import(pathToFileURL(file).href)) as { ProxyWorker: new (state: unknown, env: unknown) => Proxy };
  const state = { getWebSockets: () => [] };
  const proxy = new ProxyWorker(state, { PROXY_CONTROLLER_AUTH_SECRET: SECRET });
  const play = {
    type: "play",
    proxyData: { userWorkerUrl: { protocol: "http:", hostname: "127.0.0.1", port: "8799" }, userWorkerInnerUrlOverrides: {}, headers: {}, liveReload },
  };
  const answer = await proxy.fetch(incoming("http://localhost:8787/", { headers: { Authorization: SECRET } }, { hostMetadata: play }));
  expect(answer.status).toBe(204);
  return proxy;
}

describe("wrangler dev's proxy", () => {
  let upstream: Request[];
  let rewritten: number;

  // workerd's Headers has getAll("Set-Cookie"), which the proxy reads; Node's has getSetCookie().
  const headers = Headers.prototype as Headers & { getAll?: (name: string) => string[] };
  beforeAll(() => {
    headers.getAll = function (this: Headers, name: string) {
      return name.toLowerCase() === "set-cookie" ? this.getSetCookie() : [this.get(name) ?? ""];
    };
  });
  afterAll(() => delete headers.getAll);

  beforeEach(() => {
    upstream = [];
    rewritten = 0;
    vi.stubGlobal("fetch", async (url: URL, request: Request) => {
      upstream.push(new Request(url, request));
      return new Response(HTML, { headers: { "Content-Type": "text/html; charset=utf-8" } });
    });
    // workerd's HTMLRewriter, counted: Node has none, so an unexpected use would also fail with a ReferenceError.
    vi.stubGlobal(
      "HTMLRewriter",
      class {
        on() {
          return this;
        }
        onDocument() {
          return this;
        }
        transform(response: Response) {
          rewritten++;
          return response;
        }
      },
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it("asks the app's Worker for an uncompressed answer whatever the client accepts, and passes HTML on as it came", async () => {
    const proxy = await startedProxy(false);
    const answer = await proxy.fetch(incoming("http://localhost:8787/home", { headers: { "Accept-Encoding": "br, gzip" } }, { clientAcceptEncoding: "gzip, deflate, br" }));
    expect(upstream.map((request) => [request.url, request.headers.get("Accept-Encoding")])).toEqual([["http://127.0.0.1:8799/home", "identity"]]);
    expect(await answer.text()).toBe(HTML);
    expect(rewritten).toBe(0);
  });

  it("still rewrites HTML to add the live-reload script when live reload is on", async () => {
    const proxy = await startedProxy(true);
    await (await proxy.fetch(incoming("http://localhost:8787/home", {}, { clientAcceptEncoding: "gzip" }))).text();
    expect(rewritten).toBe(1);
    expect(upstream[0]?.headers.get("Accept-Encoding")).toBe("identity");
  });
});
