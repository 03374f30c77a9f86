import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  connectSocket,
  connectUserChannel,
  parseUserChannelFrame,
  PING_INTERVAL_MS,
  reconnectDelay,
  shouldReconnect,
  userChannelUrl,
  type UserChannelEvent,
} from "../../app/lib/user-channel";
import { encodeUserChannelEvent, userChannelName } from "@shared/user-channel-events";

describe("reconnectDelay", () => {
  it("doubles from 1 s to a 30 s ceiling without jitter", () => {
    const none = () => 0;
    expect([0, 1, 2, 3, 4, 5, 6, 20, 1000].map((attempt) => reconnectDelay(attempt, none))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000,
    ]);
  });

  it("takes up to half off at random, never more, never above the ceiling", () => {
    expect(reconnectDelay(0, () => 1)).toBe(500);
    expect(reconnectDelay(3, () => 0.5)).toBe(6000);
    for (let attempt = 0; attempt < 12; attempt++) {
      for (let i = 0; i < 50; i++) {
        const delay = reconnectDelay(attempt);
        const ceiling = Math.min(30_000, 1000 * 2 ** attempt);
        expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
        expect(delay).toBeLessThanOrEqual(ceiling);
      }
    }
    expect(reconnectDelay(-3, () => 0)).toBe(1000);
    expect(reconnectDelay(2, () => 7)).toBe(2000); // a bad random source cannot go below half
  });
});

describe("parseUserChannelFrame", () => {
  it("accepts the events of the map", () => {
    expect(parseUserChannelFrame('{"event":"NewUpdate"}')).toEqual({ event: "NewUpdate" });
    expect(parseUserChannelFrame(encodeUserChannelEvent({ event: "NewUpdate" }))).toEqual({ event: "NewUpdate" });
    // Unknown extra fields are dropped rather than passed on.
    expect(parseUserChannelFrame('{"event":"NewUpdate","html":"<img>"}')).toEqual({ event: "NewUpdate" });
  });

  it.each([
    ["pong"],
    [""],
    ["{"],
    ["null"],
    ["[]"],
    ['["NewUpdate"]'],
    ['{"event":"Unknown"}'],
    ['{"event":"toString"}'],
    ['{"event":"__proto__"}'],
    ['{"type":"NewUpdate"}'],
    ['{"event":1}'],
    [`{"event":"NewUpdate","pad":"${"x".repeat(70_000)}"}`],
  ])("ignores %j", (frame) => {
    expect(parseUserChannelFrame(frame)).toBeNull();
  });

  it("ignores binary frames", () => {
    expect(parseUserChannelFrame(new ArrayBuffer(4))).toBeNull();
    expect(parseUserChannelFrame(undefined)).toBeNull();
  });
});

describe("names", () => {
  it("addresses the channel and the socket", () => {
    expect(userChannelName(42)).toBe("updates.42");
    expect(userChannelUrl({ protocol: "https:", host: "fanclub.example" })).toBe("wss://fanclub.example/ws/updates");
    expect(userChannelUrl({ protocol: "http:", host: "localhost:8787" })).toBe("ws://localhost:8787/ws/updates");
  });

  it("does not reconnect after an authentication or policy close", () => {
    expect([1000, 1001, 1006, 1011, 1012, 4000].every(shouldReconnect)).toBe(true);
    expect([1008, 4401, 4403].some(shouldReconnect)).toBe(false);
  });
});

class FakeSocket {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  closedWith: number | undefined;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close(code?: number) {
    this.closedWith = code;
    this.readyState = 3;
  }
  serverOpens() {
    this.readyState = 1;
    this.onopen?.(new Event("open"));
  }
  serverSends(data: unknown) {
    this.onmessage?.({ data } as MessageEvent);
  }
  serverCloses(code: number, reason = "") {
    this.readyState = 3;
    this.onclose?.({ code, reason } as CloseEvent);
  }
}

describe("connectUserChannel", () => {
  let events: UserChannelEvent[];
  let online: EventTarget;
  const latest = () => FakeSocket.all[FakeSocket.all.length - 1]!;
  const start = () =>
    connectUserChannel((event) => events.push(event), {
      url: "wss://app.test/ws/updates",
      createSocket: (url) => new FakeSocket(url),
      events: online,
      random: () => 0,
    });

  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.all = [];
    events = [];
    online = new EventTarget();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("passes valid events on and ignores junk", () => {
    const stop = start();
    expect(latest().url).toBe("wss://app.test/ws/updates");
    latest().serverOpens();
    events = [];
    latest().serverSends('{"event":"NewUpdate"}');
    latest().serverSends("garbage");
    latest().serverSends('{"event":"Nope"}');
    expect(events).toEqual([{ event: "NewUpdate" }]);
    stop();
  });

  it("backs off 1, 2, 4 s while failing, starts over after an open, and catches up after reconnecting", () => {
    const stop = start();
    latest().serverOpens();
    events = [];
    latest().serverCloses(1006);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(999);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);
    latest().serverCloses(1006);
    vi.advanceTimersByTime(1999);
    expect(FakeSocket.all).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(3);
    latest().serverCloses(1006);
    vi.advanceTimersByTime(4000);
    expect(FakeSocket.all).toHaveLength(4);

    expect(events).toEqual([]);
    latest().serverOpens();
    expect(events).toEqual([{ event: "NewUpdate" }]); // refetch what was missed while away
    latest().serverCloses(1001);
    vi.advanceTimersByTime(999);
    expect(FakeSocket.all).toHaveLength(4);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(5); // the open reset the backoff to 1 s
    stop();
  });

  it("emits the catch-up event on the first open too (an event sent before the socket opened reached no one)", () => {
    const stop = start();
    expect(events).toEqual([]);
    latest().serverOpens();
    expect(events).toEqual([{ event: "NewUpdate" }]);
    stop();
  });

  it("stops for good after the server closes for authentication or policy", () => {
    const stop = start();
    latest().serverOpens();
    latest().serverCloses(4401);
    vi.advanceTimersByTime(120_000);
    online.dispatchEvent(new Event("online"));
    expect(FakeSocket.all).toHaveLength(1);
    stop();
  });

  it("reconnects at once when the browser comes back online", () => {
    const stop = start();
    latest().serverCloses(1006);
    latest(); // still one socket, a retry is pending
    online.dispatchEvent(new Event("online"));
    expect(FakeSocket.all).toHaveLength(2);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(2); // the pending retry was cancelled
    online.dispatchEvent(new Event("online"));
    expect(FakeSocket.all).toHaveLength(2); // already connecting: no second socket
    stop();
  });

  it("pings every 25 s and drops a connection that stopped answering", () => {
    const stop = start();
    const first = latest();
    first.serverOpens();
    events = [];
    vi.advanceTimersByTime(PING_INTERVAL_MS);
    expect(first.sent).toEqual(["ping"]);
    first.serverSends("pong");
    vi.advanceTimersByTime(PING_INTERVAL_MS);
    expect(first.sent).toEqual(["ping", "ping"]);
    expect(events).toEqual([]); // pong is not an event
    vi.advanceTimersByTime(PING_INTERVAL_MS); // no pong this time
    expect(first.closedWith).toBe(4000);
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.all).toHaveLength(2);
    stop();
  });

  it("the disposer closes the socket and cancels every timer and listener", () => {
    const stop = start();
    const socket = latest();
    socket.serverOpens();
    stop();
    expect(socket.closedWith).toBe(1000);
    socket.serverCloses(1006);
    online.dispatchEvent(new Event("online"));
    vi.advanceTimersByTime(120_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(socket.sent).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("the disposer also cancels a pending retry", () => {
    const stop = start();
    latest().serverCloses(1006);
    stop();
    vi.advanceTimersByTime(120_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("connectSocket's onClose", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.all = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const open = (onClose: (code: number, reason: string) => boolean | void) =>
    connectSocket({
      url: "wss://app.test/ws/live/1",
      parse: () => null,
      onFrame: () => undefined,
      onClose,
      createSocket: (url) => new FakeSocket(url),
      events: null,
      random: () => 0,
    });

  it("hears the server's code and reason, and stops for good when it answers false (a room that turned the person away)", () => {
    const heard: [number, string][] = [];
    const connection = open((code, reason) => {
      heard.push([code, reason]);
      return code !== 4009;
    });
    FakeSocket.all[0]!.serverOpens();
    FakeSocket.all[0]!.serverCloses(4009, "This stream is full. Try again later.");
    vi.advanceTimersByTime(120_000);
    expect(heard).toEqual([[4009, "This stream is full. Try again later."]]);
    expect(FakeSocket.all).toHaveLength(1);
    connection.close();
  });

  it("a session's end (4401) asks once whether the page is still signed in, and stops; no other close asks", () => {
    let asked = 0;
    const connect = () =>
      connectSocket({
        url: "wss://app.test/ws/conversations/1",
        parse: () => null,
        onFrame: () => undefined,
        onSessionEnded: () => asked++,
        createSocket: (url) => new FakeSocket(url),
        events: null,
        random: () => 0,
      });
    const transient = connect();
    for (const code of [1006, 1011, 4000, 4403, 4003]) {
      FakeSocket.all.at(-1)!.serverOpens();
      FakeSocket.all.at(-1)!.serverCloses(code);
      vi.advanceTimersByTime(120_000);
    }
    transient.close();
    expect(asked).toBe(0);

    FakeSocket.all = [];
    const ended = connect();
    FakeSocket.all[0]!.serverOpens();
    FakeSocket.all[0]!.serverCloses(4401, "session ended");
    vi.advanceTimersByTime(120_000);
    expect(asked).toBe(1);
    expect(FakeSocket.all).toHaveLength(1);
    ended.close();
  });

  it("reconnects as usual when it answers anything else", () => {
    const connection = open(() => undefined);
    FakeSocket.all[0]!.serverCloses(1006);
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.all).toHaveLength(2);
    connection.close();
  });
});
