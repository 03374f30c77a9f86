import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ApiClient } from "../../app/lib/api";
import { createApiClient } from "../../app/lib/api";
import { onNetworkAnswer } from "../../app/lib/network-answers";
import { forgetOutbox, OUTBOX_SENT, outboxEntries, queueAction } from "../../app/lib/outbox";
import {
  flushOutbox,
  OUTBOX_REQUEST_TIMEOUT_MS,
  outboxNetworkBack,
  outboxRetryDelay,
  outboxStaleAfter,
} from "../../app/lib/outbox-sender";
import { connectSocket } from "../../app/lib/user-channel";
import { PONG } from "@shared/user-channel-events";

/**
 * A network that comes back without the browser noticing (navigator.onLine stayed true) is
 * used within seconds: the outbox's retries start fast, and any answer of the server sends what waits at once.
 */

/**
 * A page for the outbox in Node: `window` an event target (with `extra`), no IndexedDB (the outbox lives in the
 * tab's memory, as where a browser refuses storage), no Web Locks; console warnings quiet. Calls `onSent` at each
 * action the outbox reports sent.
 */
function stubPage(onSent: () => void, extra: object = {}) {
  const page = Object.assign(new EventTarget(), extra);
  page.addEventListener(OUTBOX_SENT, onSent);
  vi.stubGlobal("window", page);
  vi.stubGlobal("navigator", {});
  vi.spyOn(console, "warn").mockImplementation(() => {});
  forgetOutbox();
}

describe("the outbox's retries", () => {
  it("start 1 s after a failure and double, up to every 15 s", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 30, 1000].map(outboxRetryDelay)).toEqual([
      1000, 2000, 4000, 8000, 15000, 15000, 15000, 15000, 15000,
    ]);
  });
});

describe("an answer of the server", () => {
  let heard: number;
  let stop: () => void;
  beforeEach(() => {
    heard = 0;
    stop = onNetworkAnswer(() => heard++);
    vi.stubGlobal("window", { alert: () => {}, location: { assign: () => {} } });
    vi.spyOn(console, "error").mockImplementation(() => {});
  });
  afterEach(() => {
    stop();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("is any API response short of a 5xx; a request the network swallowed is none", async () => {
    const client = createApiClient({ csrfToken: null, serverErrorText: () => "server error" });
    const answering = (status: number) =>
      vi.stubGlobal(
        "fetch",
        async () =>
          new Response(status === 204 ? null : status < 300 ? "{}" : '{"message":"No.","errors":{}}', { status }),
      );
    for (const [status, counted] of [
      [204, 1],
      [200, 1],
      [404, 1],
      [422, 1],
      [500, 0],
      [502, 0],
    ] as const) {
      answering(status);
      heard = 0;
      await client.delete("/comments/1").catch(() => undefined);
      expect(heard, `status ${status}`).toBe(counted);
    }
    // A page that is not the API's (a captive portal, a proxy), whatever its status: no answer.
    for (const status of [200, 403, 407]) {
      vi.stubGlobal(
        "fetch",
        async () =>
          new Response("<!doctype html><title>Sign in</title>", { status, headers: { "Content-Type": "text/html" } }),
      );
      heard = 0;
      await client.delete("/comments/1").catch(() => undefined);
      expect(heard, `HTML ${status}`).toBe(0);
    }
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("Failed to fetch");
    });
    heard = 0;
    await client.delete("/comments/1").catch(() => undefined);
    expect(heard).toBe(0);
  });

  it("is also the real-time socket opening, and each pong it sends", () => {
    type Fake = {
      onopen: (() => void) | null;
      onmessage: ((event: { data: unknown }) => void) | null;
      onclose: null;
      onerror: null;
      readyState: number;
      send(): void;
      close(): void;
    };
    let socket: Fake | undefined;
    const connection = connectSocket({
      url: "wss://app.test/ws/updates",
      createSocket: () =>
        (socket = {
          onopen: null,
          onmessage: null,
          onclose: null,
          onerror: null,
          readyState: 0,
          send: () => {},
          close: () => {},
        }) as never,
      events: null,
      parse: () => null,
      onFrame: () => {},
    });
    expect(heard).toBe(0);
    socket!.readyState = 1;
    socket!.onopen!();
    expect(heard).toBe(1);
    socket!.onmessage!({ data: PONG });
    expect(heard).toBe(2);
    connection.close();
  });
});

describe("flushing the outbox", () => {
  /** The like requests the outbox sent, each answered (or failed) when the test says. */
  let likes: { resolve: (value: unknown) => void; reject: (error: unknown) => void }[];
  let sent: number;
  const client = {
    post: () => new Promise((resolve, reject) => likes.push({ resolve, reject })),
  } as unknown as ApiClient;
  /** Lets every promise and task queued so far run. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

  beforeEach(() => {
    likes = [];
    sent = 0;
    stubPage(() => sent++);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("asked again while a round fails on a request sent before the network came back: one more round at once", async () => {
    await queueAction(client, { kind: "like", postId: 7 });
    await vi.waitFor(() => expect(likes).toHaveLength(1));
    // The server answers something else meanwhile: the page asks the outbox to send.
    void flushOutbox(client);
    likes[0]!.reject(new TypeError("Failed to fetch"));
    await vi.waitFor(() => expect(likes).toHaveLength(2));
    likes[1]!.resolve({ liked: true, likeCount: 1 });
    await flushOutbox(client);
    expect(await outboxEntries()).toEqual([]);
    expect(sent).toBe(1);
    expect(likes).toHaveLength(2);
  });

  it("asked by two triggers at the same time, sends the like once", async () => {
    await queueAction(client, { kind: "like", postId: 8 });
    await vi.waitFor(() => expect(likes).toHaveLength(1));
    likes[0]!.reject(new TypeError("Failed to fetch"));
    await settle();
    // The network is back: an API answer and the socket's pong are noticed in the same moment.
    const first = flushOutbox(client);
    const second = flushOutbox(client);
    await vi.waitFor(() => expect(likes).toHaveLength(2));
    likes[1]!.resolve({ liked: true, likeCount: 1 });
    await Promise.all([first, second]);
    await settle();
    expect(likes).toHaveLength(2);
    expect(sent).toBe(1);
    expect(await outboxEntries()).toEqual([]);
  });
});

describe("the network seen back while the outbox's round waits on a request", () => {
  /** The outbox's requests, each answered when the test says; one given up fails with its signal's reason, as fetch does. */
  interface Call {
    path: string;
    body: unknown;
    signal: AbortSignal;
    resolve: (value: unknown) => void;
  }
  let calls: Call[];
  let sent: number;
  const request = (path: string, body: unknown, options: { signal: AbortSignal }) =>
    new Promise((resolve, reject) => {
      options.signal.addEventListener("abort", () => reject(options.signal.reason));
      calls.push({ path, body, signal: options.signal, resolve });
    });
  const client = {
    post: (path: string, body: unknown, _shape: unknown, options: { signal: AbortSignal }) =>
      request(path, body, options),
    delete: (path: string, options: { signal: AbortSignal }) => request(path, undefined, options),
  } as unknown as ApiClient;
  /** Lets the promises queued so far run (the page's time stands still). */
  const settle = async () => {
    for (let i = 0; i < 50; i++) await Promise.resolve();
  };
  /** The page's time moves on by `ms`, its timers with it. */
  const wait = async (ms: number) => {
    await vi.advanceTimersByTimeAsync(ms);
    await settle();
  };
  const answerLast = async () => {
    calls.at(-1)!.resolve({ liked: true, likeCount: 1, bookmarked: true, comment: { id: 1 } });
    await settle();
  };

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    calls = [];
    sent = 0;
    stubPage(() => sent++);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("gives up a request that has waited 1 s at once, and sends the entry again at once: applied once", async () => {
    void queueAction(client, { kind: "like", postId: 11 });
    await settle();
    expect(calls).toHaveLength(1);
    await wait(1_000);
    expect(calls[0]!.signal.aborted).toBe(false);

    // Another request's answer (or the updates socket, or "online"): the network is back.
    void outboxNetworkBack(client);
    expect(calls[0]!.signal.aborted).toBe(true);
    expect((calls[0]!.signal.reason as DOMException).name).toBe("AbortError");
    await settle();
    expect(calls.map((call) => call.path)).toEqual(["/posts/11/like", "/posts/11/like"]);
    await answerLast();
    expect(await outboxEntries()).toEqual([]);
    expect(sent).toBe(1);
    // The first request's answer, had it come after all, is nobody's: nothing more is sent or announced.
    calls[0]!.resolve({ liked: true, likeCount: 1 });
    await wait(OUTBOX_REQUEST_TIMEOUT_MS);
    expect(calls).toHaveLength(2);
    expect(sent).toBe(1);
  });

  it("gives up a request sent just before only once it has waited 1 s; one answered in time is not sent again", async () => {
    void queueAction(client, { kind: "bookmark", postId: 12 });
    await settle();
    void outboxNetworkBack(client);
    await wait(999);
    expect(calls[0]!.signal.aborted).toBe(false);
    await wait(1);
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(calls).toHaveLength(2);
    await answerLast();
    expect(sent).toBe(1);

    void queueAction(client, { kind: "like", postId: 13 });
    await settle();
    void outboxNetworkBack(client);
    await wait(500);
    await answerLast();
    await wait(5_000);
    expect(calls).toHaveLength(3);
    expect(calls[2]!.signal.aborted).toBe(false);
    expect(sent).toBe(2);
    expect(await outboxEntries()).toEqual([]);
  });

  it("never gives up a request for a timed try or the tab being shown: it waits for its answer, or its 20 s timeout", async () => {
    void queueAction(client, { kind: "like", postId: 14 });
    await settle();
    await wait(5_000);
    void flushOutbox(client);
    await settle();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.signal.aborted).toBe(false);
    await wait(OUTBOX_REQUEST_TIMEOUT_MS - 5_000);
    expect((calls[0]!.signal.reason as DOMException).name).toBe("TimeoutError");
    // The flush asked meanwhile runs one more round at once.
    expect(calls).toHaveLength(2);
    await answerLast();
    expect(sent).toBe(1);
  });

  it("on a slow network, waits twice as long before each next give-up, until an answer comes", async () => {
    expect([0, 1, 2, 3, 4, 5, 40].map(outboxStaleAfter)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 20_000, 20_000]);
    void queueAction(client, { kind: "like", postId: 15 });
    await settle();
    for (const [index, staleAfter] of [1_000, 2_000, 4_000].entries()) {
      void outboxNetworkBack(client);
      await wait(staleAfter - 1);
      expect(calls[index]!.signal.aborted, `try ${index}`).toBe(false);
      await wait(1);
      expect(calls[index]!.signal.aborted, `try ${index}`).toBe(true);
    }
    expect(calls).toHaveLength(4);
    await answerLast();
    expect(sent).toBe(1);
    // The answer ends the slow spell: the next request is given up after 1 s again.
    void queueAction(client, { kind: "like", postId: 16 });
    await settle();
    await wait(1_000);
    void outboxNetworkBack(client);
    expect(calls[4]!.signal.aborted).toBe(true);
    await settle();
    await answerLast();
    expect(await outboxEntries()).toEqual([]);
  });

  it("sends a comment given up again with the same client id (the server keeps one comment per client id: tests/worker/interactions.test.ts)", async () => {
    const entry = await queueAction(client, { kind: "comment", postId: 17, text: "Once" });
    await settle();
    await wait(1_000);
    void outboxNetworkBack(client);
    await settle();
    expect(calls.map((call) => call.body)).toEqual([
      { text: "Once", clientId: entry.id },
      { text: "Once", clientId: entry.id },
    ]);
    await answerLast();
    expect(sent).toBe(1);
  });
});

describe("an answer that is not the API's (a captive portal's page, a shape a deploy changed)", () => {
  /** Requests the outbox sent; after 20 the network swallows them (a loop must not hang the test). */
  let requests: number;
  let sent: number;
  let stop: () => void;
  let client: ApiClient;
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
  const answering = (body: string, contentType: string) =>
    vi.stubGlobal("fetch", async () => {
      requests++;
      if (requests > 20) return new Promise(() => {});
      return new Response(body, { status: 200, headers: { "Content-Type": contentType } });
    });

  // The chat's shapes, loaded by the outbox once the server answers a message: loaded already, so no wait is long.
  beforeAll(() => import("../../app/components/messages/chat-shapes"));
  beforeEach(() => {
    requests = 0;
    sent = 0;
    stubPage(() => sent++, { alert: () => {}, location: { assign: () => {} } });
    vi.spyOn(console, "error").mockImplementation(() => {});
    client = createApiClient({ csrfToken: null, serverErrorText: () => "server error" });
    // As the outbox tray does: every answer of the server is the network seen back.
    stop = onNetworkAnswer((signal) => void outboxNetworkBack(client, signal));
  });
  afterEach(() => {
    stop();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const actions = [
    { kind: "like", postId: 21 },
    { kind: "unlike", postId: 21 },
    { kind: "bookmark", postId: 21 },
    { kind: "unbookmark", postId: 21 },
    { kind: "comment", postId: 21, text: "Hello" },
    { kind: "message", conversationId: 3, text: "Hello" },
  ] as const;
  const answers = [
    { name: "a 200 HTML page", body: "<!doctype html><title>Sign in to the Wi-Fi</title>", type: "text/html" },
    { name: "a 200 JSON of another shape", body: '{"unexpected":true}', type: "application/json" },
  ];
  for (const action of actions) {
    for (const answer of answers) {
      // A call whose answer is not read (unlike, unbookmark) cannot tell another JSON from the server's.
      if (answer.type === "application/json" && (action.kind === "unlike" || action.kind === "unbookmark")) continue;
      it(`${answer.name} to a ${action.kind}: one round, then the backoff; the entry still waits`, async () => {
        answering(answer.body, answer.type);
        let heard = 0;
        const stopCounting = onNetworkAnswer(() => heard++);
        await queueAction(client, action);
        await vi.waitFor(() => expect(requests).toBeGreaterThan(0));
        await settle();
        await settle();
        stopCounting();
        expect(requests).toBe(1);
        expect(sent).toBe(0);
        expect((await outboxEntries()).map((entry) => entry.status)).toEqual(["pending"]);
        expect(heard).toBe(0);
        // The tray's next timed try sends it once more.
        await flushOutbox(client);
        await settle();
        expect(requests).toBe(2);
        expect((await outboxEntries()).map((entry) => entry.status)).toEqual(["pending"]);
      });
    }
  }
});
