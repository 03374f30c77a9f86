import { describe, expect, it } from "vitest";
import {
  FEED_LIMIT,
  initialLiveRoom,
  liveRoomReducer,
  type LiveRoomState,
} from "../../app/components/live/live-room-state";
import { keepsCandidate, sdpForPlan } from "../../app/components/live/webrtc";
import { LIVE_CLOSE, type LiveServerFrame } from "@shared/live-events";
import type { Config } from "../../worker/env";
import { liveMediaOrigins } from "../../worker/live/transports";

const person = (id: number) => ({ id, username: `u${id}`, name: `User ${id}` });
const chat = (id: number, at: string) => ({ id, user: person(id), text: `line ${id}`, at });
const tip = (id: number, at: string, amountCents = 500) => ({ id, user: person(9), amountCents, note: null, at });
const fold = (frames: LiveServerFrame[], state: LiveRoomState = initialLiveRoom(0, 0)) =>
  frames.reduce((held, frame) => liveRoomReducer(held, { type: "frame", frame }), state);
const hello = (over: Partial<Extract<LiveServerFrame, { type: "hello" }>> = {}): LiveServerFrame => ({
  type: "hello",
  peerId: "p1",
  role: "viewer",
  viewers: 2,
  tipsCents: 0,
  chat: [],
  tips: [],
  muted: false,
  ...over,
});

describe("the live room's screen state", () => {
  it("merges chat and tips in time order, without the repeats a reconnect's hello brings", () => {
    const first = fold([
      hello({ chat: [chat(1, "2026-01-01T00:00:01Z")], tips: [tip(1, "2026-01-01T00:00:02Z")] }),
      { type: "chat", line: chat(2, "2026-01-01T00:00:03Z") },
    ]);
    const again = fold(
      [
        hello({
          chat: [chat(1, "2026-01-01T00:00:01Z"), chat(2, "2026-01-01T00:00:03Z")],
          tips: [tip(1, "2026-01-01T00:00:02Z")],
        }),
      ],
      first,
    );
    expect(again.feed.map((item) => item.key)).toEqual(["c1", "t1", "c2"]);
  });

  it("keeps the last FEED_LIMIT items", () => {
    const frames: LiveServerFrame[] = Array.from({ length: FEED_LIMIT + 5 }, (_, i) => ({
      type: "chat",
      line: chat(i + 1, new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString()),
    }));
    const state = fold(frames);
    expect(state.feed).toHaveLength(FEED_LIMIT);
    expect(state.feed[0]!.key).toBe("c6");
  });

  it("a tip raises the total (never lowers it) and becomes the tip shown over the video", () => {
    const state = fold([
      hello({ tipsCents: 1000 }),
      { type: "tip", tip: tip(3, "2026-01-01T00:00:05Z"), tipsCents: 1500 },
      { type: "tip", tip: tip(2, "2026-01-01T00:00:04Z"), tipsCents: 1200 },
    ]);
    expect(state.tipsCents).toBe(1500);
    expect(state.latestTip?.id).toBe(2);
  });

  it("counts viewers, mutes, refusals and the end", () => {
    let state = fold([
      hello(),
      { type: "viewers", count: 5 },
      { type: "muted", muted: true },
      { type: "refused", message: "Too fast" },
    ]);
    expect(state).toMatchObject({ connected: true, viewers: 5, muted: true, refused: "Too fast" });
    state = liveRoomReducer(state, { type: "dismiss" });
    expect(state.refused).toBeNull();
    expect(fold([{ type: "ended", reason: "silent" }], state).ended).toBe("silent");
  });

  it("the peak is the most viewers at once: the page's figure, then every count the room sends, never lower", () => {
    expect(initialLiveRoom(0, 1, 4).peakViewers).toBe(4);
    const state = fold(
      [hello({ viewers: 6 }), { type: "viewers", count: 7 }, { type: "viewers", count: 2 }],
      initialLiveRoom(0, 1, 4),
    );
    expect(state).toMatchObject({ viewers: 2, peakViewers: 7 });
    expect(fold([{ type: "viewers", count: 3 }], initialLiveRoom(0, 1, 4)).peakViewers).toBe(4);
  });

  it("a final close says why (full, removed, flooding); an ended close ends; any other close only disconnects", () => {
    const base = fold([hello()]);
    expect(
      liveRoomReducer(base, { type: "closed", code: LIVE_CLOSE.full, reason: "This stream is full." }),
    ).toMatchObject({ connected: false, closedWith: "This stream is full.", ended: null });
    expect(liveRoomReducer(base, { type: "closed", code: LIVE_CLOSE.removed, reason: "Removed." }).closedWith).toBe(
      "Removed.",
    );
    expect(liveRoomReducer(base, { type: "closed", code: LIVE_CLOSE.ended, reason: "Ended" })).toMatchObject({
      ended: "creator",
      closedWith: null,
    });
    expect(liveRoomReducer(base, { type: "closed", code: 1006, reason: "" })).toMatchObject({
      connected: false,
      closedWith: null,
      ended: null,
    });
  });
});

describe("loopback-only ICE in test mode", () => {
  const host = "candidate:1 1 udp 2122260223 127.0.0.1 54321 typ host generation 0";
  const lan = "candidate:2 1 udp 2122194687 10.0.0.7 54322 typ host generation 0";
  const mdns = "candidate:3 1 udp 2122129151 4d2b4a1e-0b3c.local 54323 typ host generation 0";

  it("keeps only 127.0.0.1 candidates, and the end-of-candidates marker", () => {
    expect([host, lan, mdns, ""].map((candidate) => keepsCandidate(candidate, true))).toEqual([
      true,
      false,
      false,
      true,
    ]);
    expect([host, lan, mdns].every((candidate) => keepsCandidate(candidate, false))).toBe(true);
  });

  it("takes the others out of an SDP (WHIP and WHEP carry them there)", () => {
    const sdp = [
      "v=0",
      "m=video 9 UDP/TLS/RTP/SAVPF 96",
      `a=${host}`,
      `a=${lan}`,
      `a=${mdns}`,
      "a=end-of-candidates",
      "",
    ].join("\r\n");
    expect(sdpForPlan(sdp, true)).toBe(
      ["v=0", "m=video 9 UDP/TLS/RTP/SAVPF 96", `a=${host}`, "a=end-of-candidates", ""].join("\r\n"),
    );
    expect(sdpForPlan(sdp, false)).toBe(sdp);
  });
});

describe("where the page may send WHIP and WHEP requests (connect-src)", () => {
  const settings = (over: Partial<Config>) => ({ LIVE_TRANSPORT: "p2p", ...over }) as Config;

  it("nowhere for p2p; the relay's origin once for URL templates; Cloudflare Stream's hosts for a live input", () => {
    expect(liveMediaOrigins(settings({ LIVE_WHIP_URL: "http://127.0.0.1:9000/whip/{stream}" }))).toEqual([]);
    expect(
      liveMediaOrigins(
        settings({
          LIVE_TRANSPORT: "whip",
          LIVE_WHIP_URL: "http://127.0.0.1:9000/whip/{stream}",
          LIVE_WHEP_URL: "http://127.0.0.1:9000/whep/{stream}",
        }),
      ),
    ).toEqual(["http://127.0.0.1:9000"]);
    expect(
      liveMediaOrigins(
        settings({ LIVE_TRANSPORT: "whip", CF_ACCOUNT_ID: "a".repeat(32), CF_STREAM_API_TOKEN: "token" }),
      ),
    ).toEqual(["https://*.cloudflarestream.com"]);
  });
});
