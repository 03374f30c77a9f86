import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";

// scripts/patch-wrangler-inspector.mjs: the inspector proxy of `wrangler dev` no longer POSTs a debug log to
// wrangler's Node process for every message of the runtime's inspector (three Network events per subrequest: each
// D1 batch, each Durable Object call), and keeps no Network events while no DevTools is attached. The class is
// driven here as wrangler's proxy process drives it: runtime messages in, DevTools messages and requests out.
const require = createRequire(import.meta.url);
const file = join(dirname(require.resolve("wrangler/package.json")), "wrangler-dist", "InspectorProxyWorker.js");

interface Proxy {
  websockets: { devtools?: { send(message: string): void } };
  runtimeMessageBuffer: Array<{ method?: string }>;
  handleRuntimeIncomingMessage(event: { data: string }): void;
  tryDrainRuntimeMessageBuffer(): void;
}

const runtime = (method: string) => ({ data: JSON.stringify({ method, params: { requestId: "1" } }) });
const SUBREQUEST = ["Network.requestWillBeSent", "Network.responseReceived", "Network.loadingFinished"];

describe("wrangler dev's inspector proxy", () => {
  let proxy: Proxy;
  let requests: unknown[];

  beforeEach(async () => {
    const { InspectorProxyWorker } = (await import(pathToFileURL(file).href)) as { InspectorProxyWorker: new (state: unknown, env: unknown) => Proxy };
    requests = [];
    const PROXY_CONTROLLER = {
      fetch: async (_url: string, init: { body: string }) => {
        requests.push(JSON.parse(init.body));
        return new Response("");
      },
    };
    proxy = new InspectorProxyWorker({}, { PROXY_CONTROLLER });
  });

  it("sends wrangler no request per runtime message, and keeps no Network events without DevTools", async () => {
    for (let i = 0; i < 100; i++) for (const method of SUBREQUEST) proxy.handleRuntimeIncomingMessage(runtime(method));
    proxy.handleRuntimeIncomingMessage(runtime("Debugger.scriptParsed"));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(requests).toEqual([]);
    // What a DevTools that connects later still gets: the scripts, not the past subrequests.
    expect(proxy.runtimeMessageBuffer.map((message) => message.method)).toEqual(["Debugger.scriptParsed"]);
  });

  it("passes every message on to an attached DevTools, Network events included", async () => {
    const sent: string[] = [];
    proxy.websockets.devtools = { send: (message) => sent.push(JSON.parse(message).method) };
    for (const method of [...SUBREQUEST, "Runtime.consoleAPICalled"]) proxy.handleRuntimeIncomingMessage(runtime(method));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent).toEqual([...SUBREQUEST, "Runtime.consoleAPICalled"]);
    expect(requests).toEqual([]);
  });
});
