import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ApiClient } from "../../app/lib/api";
import { createApiClient } from "../../app/lib/api";
import { onNetworkAnswer } from "../../app/lib/network-answers";
import { forgetOutbox, OUTBOX_SENT, outboxEntries, queueAction } from "../../app/lib/outbox";
import { flushOutbox, outboxRetryDelay } from "../../app/lib/outbox-sender";
import { connectSocket } from "../../app/lib/user-channel";
import { PONG } from "@shared/user-channel-events";

/**
 * Issue 46, item 19: a network that comes back without the browser noticing (navigator.onLine stayed true) is
 * used within seconds: the outbox's retries start fast, and any answer of the server sends what waits at once.
 */

describe("the outbox's retries", () => {
  it("start 1 s after a failure and double, up to every 15 s", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 30, 1000].map(outboxRetryDelay)).toEqual([1000, 2000, 4000, 8000, 15000, 15000, 15000, 15000, 15000]);
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
    const answering = (status: number) => vi.stubGlobal("fetch", async () => new Response(status === 204 ? null : "{}", { status }));
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
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("Failed to fetch");
    });
    heard = 0;
    await client.delete("/comments/1").catch(() => undefined);
    expect(heard).toBe(0);
  });

  it("is also the real-time socket opening, and each pong it sends", () => {
    type Fake = { onopen: (() => void) | null; onmessage: ((event: { data: unknown }) => void) | null; onclose: null; onerror: null; readyState: number; send(): void; close(): void };
    let socket: Fake | undefined;
    const connection = connectSocket({
      url: "wss://app.test/ws/updates",
      createSocket: () => (socket = { onopen: null, onmessage: null, onclose: null, onerror: null, readyState: 0, send: () => {}, close: () => {} }) as never,
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
    const page = new EventTarget();
    page.addEventListener(OUTBOX_SENT, () => sent++);
    // Node: no IndexedDB (the outbox lives in the tab's memory, as where a browser refuses storage), no Web Locks.
    vi.stubGlobal("window", page);
    vi.stubGlobal("navigator", {});
    vi.spyOn(console, "warn").mockImplementation(() => {});
    forgetOutbox();
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
