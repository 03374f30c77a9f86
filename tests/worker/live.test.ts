import { env, runDurableObjectAlarm, runInDurableObject, SELF } from "cloudflare:test";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { LiveStreamView } from "@shared/contracts/live";
import { LIVE_CHAT_LINES, LIVE_CLOSE, LIVE_SILENT_AFTER_MS, type LiveServerFrame } from "@shared/live-events";
import { auditLedger, balancesOf } from "../../worker/domain/money/ledger";
import { liveAudienceToTell } from "../../worker/domain/live/live-tips";
import {
  currentLiveAccessOf,
  currentLiveAccessRead,
  endedStreamsOfRead,
  listEndedStreamsOf,
  recentlyEndedRead,
} from "../../worker/domain/live/streams";
import { sendLiveTip } from "../../worker/domain/live/live-money";
import { config } from "../../worker/env";
import { findUserById } from "../../worker/domain/accounts/users";
import { readTogether } from "../../worker/domain/shared/reads";
import { counted } from "./counted-db";
import type { LiveRoom } from "../../worker/realtime/live-room";
import { liveRoomStub } from "../../worker/realtime/socket-delivery";
import { api, createUser, postJson } from "./factories";
import { createFan, createVerifiedCreator, fundWallet, newKey } from "./money-fixtures";
import { block, follow, subscribe } from "./timeline-fixtures";
import { eventually, until } from "./waits";

type Person = Awaited<ReturnType<typeof createFan>>;

afterAll(async () => {
  expect(await auditLedger(env.DB)).toEqual({
    unbalancedTransfers: 0,
    openTransfers: 0,
    negativeAccounts: 0,
    driftedAccounts: 0,
    totalCents: 0,
  });
});

const START = { title: "Evening stream", audience: "everyone" };

async function goLive(creator: Person, body: Record<string, unknown> = {}): Promise<LiveStreamView> {
  const response = await postJson("/live", { ...START, ...body }, { token: creator.token });
  expect(response.status).toBe(201);
  return (await response.json()) as LiveStreamView;
}

const listed = async (person: Person) =>
  ((await (await api("/live", { token: person.token })).json()) as { streams: LiveStreamView[] }).streams.map(
    (s) => s.id,
  );
const walletOf = async (person: Person) => (await balancesOf(env.DB, person.user.userId)).wallet;

// ── sockets ──

interface Client {
  socket: WebSocket;
  frames: LiveServerFrame[];
  closed: { code: number; reason: string } | null;
}

const sockets: WebSocket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) {
    try {
      socket.close(1000, "test over");
    } catch {
      // already closed
    }
  }
});

const upgrade = (person: Person, streamId: number | string) =>
  SELF.fetch(`https://app.test/ws/live/${streamId}`, {
    headers: { Upgrade: "websocket", Authorization: `Bearer ${person.token}` },
  });

async function connect(person: Person, streamId: number): Promise<Client> {
  const response = await upgrade(person, streamId);
  expect(response.status).toBe(101);
  const socket = response.webSocket!;
  const client: Client = { socket, frames: [], closed: null };
  socket.addEventListener("message", (event) =>
    client.frames.push(JSON.parse(event.data as string) as LiveServerFrame),
  );
  socket.addEventListener("close", (event) => (client.closed = { code: event.code, reason: event.reason }));
  socket.accept();
  sockets.push(socket);
  await until(() => client.frames.length > 0 || client.closed !== null, "the hello or a close");
  return client;
}

const framesOf = <T extends LiveServerFrame["type"]>(client: Client, type: T) =>
  client.frames.filter((frame): frame is Extract<LiveServerFrame, { type: T }> => frame.type === type);

describe("going live", () => {
  it("only creators, one stream at a time, with prices and goals in range; followers and subscribers are told, blocked people not", async () => {
    const creator = await createVerifiedCreator();
    const member = await createFan();
    const follower = await createFan();
    const subscriber = await createFan();
    const blocked = await createFan();
    const blocker = await createFan();
    await follow(follower.user.userId, creator.user.userId);
    await subscribe(subscriber.user.userId, creator.user.userId);
    await follow(blocked.user.userId, creator.user.userId);
    await block(creator.user.userId, blocked.user.userId);
    await subscribe(blocker.user.userId, creator.user.userId);
    await block(blocker.user.userId, creator.user.userId);

    expect((await postJson("/live", START, { token: member.token })).status).toBe(403);
    for (const bad of [
      { priceCents: 50 },
      { priceCents: 20_001 },
      { goalCents: 99 },
      { title: "" },
      { title: "x".repeat(101) },
      { audience: "friends" },
      { title: "a\u0000b" },
    ]) {
      const response = await postJson("/live", { ...START, ...bad }, { token: creator.token });
      expect(response.status, JSON.stringify(bad)).toBe(422);
    }
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM live_streams").first("n")).toBe(0);

    const stream = await goLive(creator, { priceCents: 0, goalCents: 5000, goalTitle: "New camera" });
    expect(stream).toMatchObject({
      status: "live",
      transport: "p2p",
      goal: { cents: 5000, title: "New camera" },
      viewer: { isCreator: true, canWatch: true },
    });
    expect((await postJson("/live", START, { token: creator.token })).status).toBe(409);

    const told = await env.DB.prepare(
      "SELECT user_id, params FROM notifications WHERE kind = 'live' ORDER BY user_id",
    ).all<{ user_id: number; params: string }>();
    expect(told.results.map((row) => row.user_id)).toEqual(
      [follower.user.userId, subscriber.user.userId].sort((a, b) => a - b),
    );
    expect(JSON.parse(told.results[0]!.params)).toEqual({ streamId: stream.id, title: "Evening stream" });
    // The same people get the push.
    expect((await liveAudienceToTell(env.DB, creator.user.userId, 10)).sort((a, b) => a - b)).toEqual(
      told.results.map((row) => row.user_id),
    );

    // The follower's list: live now, then, once it has ended, marked ended (the screen says "was live", no Watch).
    const liveNotification = async () =>
      (
        (await (await api("/notifications", { token: follower.token })).json()) as {
          notifications: { kind: string; params: Record<string, unknown> }[];
        }
      ).notifications.find((notification) => notification.kind === "live");
    expect((await liveNotification())?.params).toEqual({ streamId: stream.id, title: "Evening stream" });
    expect((await postJson(`/live/${stream.id}/end`, {}, { token: creator.token })).status).toBe(200);
    expect((await liveNotification())?.params).toEqual({ streamId: stream.id, title: "Evening stream", ended: 1 });
  });

  it("lists streams by audience: subscribers-only is absent for a follower, everything is absent for a blocked person", async () => {
    const creator = await createVerifiedCreator();
    const other = await createVerifiedCreator();
    const follower = await createFan();
    const subscriber = await createFan();
    const stranger = await createFan();
    const blocked = await createFan();
    await follow(follower.user.userId, creator.user.userId);
    await subscribe(subscriber.user.userId, creator.user.userId);
    await block(blocked.user.userId, creator.user.userId);
    const forSubscribers = await goLive(creator, { audience: "subscribers" });
    const forEveryone = await goLive(other);

    expect(await listed(subscriber)).toEqual([forSubscribers.id, forEveryone.id]);
    expect(await listed(follower)).toEqual([forEveryone.id]);
    expect(await listed(stranger)).toEqual([forEveryone.id]);
    expect(await listed(blocked)).toEqual([forEveryone.id]);
    expect((await api(`/live/${forSubscribers.id}`, { token: follower.token })).status).toBe(404);
    expect((await api(`/live/${forSubscribers.id}`, { token: blocked.token })).status).toBe(404);
    expect((await api(`/live/${forSubscribers.id}`, { token: subscriber.token })).status).toBe(200);
    expect((await upgrade(follower, forSubscribers.id)).status).toBe(404);
    expect((await api(`/live/${forSubscribers.id}/media`, { token: follower.token })).status).toBe(404);
  });

  it("the list is one statement over the index of live streams, never a scan of every stream", async () => {
    const plan = await env.DB.prepare(
      `EXPLAIN QUERY PLAN SELECT ls.id FROM live_streams ls INDEXED BY live_streams_now JOIN users o ON o.id = ls.creator_id
       WHERE ls.status = 'live' ORDER BY ls.started_at DESC LIMIT 50`,
    ).all<{ detail: string }>();
    const details = plan.results.map((row) => row.detail).join(" | ");
    expect(details).toContain("USING INDEX live_streams_now");
    expect(details).not.toMatch(/SCAN ls(?! USING)/);
  });
});

describe("the entry price", () => {
  it("is taken once however often the fan joins; a short wallet is told to top up; the creator earns it under 'live'", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    const poor = await createFan();
    await fundWallet(fan.user.userId, 1000);
    const stream = await goLive(creator, { priceCents: 400 });

    expect((await api(`/live/${stream.id}/media`, { token: fan.token })).status).toBe(402);
    expect((await upgrade(fan, stream.id)).status).toBe(402);
    const first = await postJson(`/live/${stream.id}/join`, { priceCents: 400 }, { token: fan.token });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ replayed: false, payment: { kind: "live", amountCents: 400 } });
    const again = await postJson(`/live/${stream.id}/join`, { priceCents: 400 }, { token: fan.token });
    expect(await again.json()).toMatchObject({ replayed: true });
    expect(await walletOf(fan)).toBe(600);
    expect((await api(`/live/${stream.id}/media`, { token: fan.token })).status).toBe(200);
    expect(
      ((await (await api(`/live/${stream.id}`, { token: fan.token })).json()) as LiveStreamView).viewer,
    ).toMatchObject({ hasEntry: true, canWatch: true });

    const short = await postJson(`/live/${stream.id}/join`, { priceCents: 400 }, { token: poor.token });
    expect(short.status).toBe(402);
    expect(await short.json()).toMatchObject({ message: "You need to fund your wallet!" });
    expect((await postJson(`/live/${stream.id}/join`, {}, { token: creator.token })).status).toBe(409);
    const earnings = await env.DB.prepare("SELECT source, gross_cents FROM earnings WHERE creator_id = ?")
      .bind(creator.user.userId)
      .all();
    expect(earnings.results).toEqual([{ source: "live", gross_cents: 400 }]);
  });

  it("a free stream answers no payment, and an ended one refuses entry, media, sockets and tips", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await fundWallet(fan.user.userId, 1000);
    const stream = await goLive(creator);
    expect(await (await postJson(`/live/${stream.id}/join`, {}, { token: fan.token })).json()).toEqual({
      payment: null,
      replayed: false,
    });
    const stranger = await createFan();
    expect((await postJson(`/live/${stream.id}/end`, {}, { token: stranger.token })).status).toBe(404);
    const ended = await postJson(`/live/${stream.id}/end`, {}, { token: creator.token });
    expect(await ended.json()).toMatchObject({ status: "ended", endReason: "creator" });
    expect((await postJson(`/live/${stream.id}/join`, {}, { token: fan.token })).status).toBe(409);
    expect((await api(`/live/${stream.id}/media`, { token: fan.token })).status).toBe(409);
    expect((await upgrade(fan, stream.id)).status).toBe(409);
    expect(
      (await postJson(`/live/${stream.id}/tips`, { amountCents: 100, idempotencyKey: newKey() }, { token: fan.token }))
        .status,
    ).toBe(409);
    expect(await listed(fan)).toEqual([]);
  });
});

describe("past streams", () => {
  it("recently ended: the viewer's creators' streams their audience admits, newest first; a creator's history; each in one statement", async () => {
    const creator = await createVerifiedCreator();
    const other = await createVerifiedCreator();
    const follower = await createFan();
    await follow(follower.user.userId, creator.user.userId);
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
    const ended = async (who: Person, audience: string, endedHoursAgo: number) =>
      (await env.DB.prepare(
        `INSERT INTO live_streams (creator_id, title, audience, transport, status, started_at, ended_at, end_reason)
         VALUES (?, 'Past', ?, 'p2p', 'ended', ?, ?, 'creator') RETURNING id`,
      )
        .bind(who.user.userId, audience, hoursAgo(endedHoursAgo + 1), hoursAgo(endedHoursAgo))
        .first<number>("id"))!;
    const older = await ended(creator, "everyone", 30);
    const forSubscribers = await ended(creator, "subscribers", 20);
    const newer = await ended(creator, "followers", 10);
    const tooOld = await ended(creator, "everyone", 24 * 8);
    await ended(other, "everyone", 5); // a creator the follower does not follow

    const fanRow = (await findUserById(env.DB, follower.user.userId))!;
    const creatorRow = (await findUserById(env.DB, creator.user.userId))!;
    const { database, calls } = counted(env.DB);
    const db = database;
    // What /live and the studio read, as their loaders send it: one batch.
    const [recent, history, current] = await readTogether(db, [
      recentlyEndedRead(db, fanRow),
      endedStreamsOfRead(db, creatorRow, creator.user.userId, 3),
      currentLiveAccessRead(db, creatorRow),
    ]);
    expect(calls).toMatchObject({ single: 0, batches: 1, batchSizes: [3] });
    expect(recent.map((stream) => stream.id)).toEqual([newer, older]);
    expect(recent[0]).toMatchObject({ status: "ended", viewer: { isCreator: false } });
    // The creator sees all their own, newest id first, as many as asked.
    expect(history.map((stream) => stream.id)).toEqual([tooOld, newer, forSubscribers]);
    expect(current).toBeNull();
    // A follower looking at the creator's history: the subscribers' one is left out.
    expect((await listEndedStreamsOf(env.DB, fanRow, creator.user.userId)).map((stream) => stream.id)).toEqual([
      tooOld,
      newer,
      older,
    ]);

    const live = await goLive(creator);
    expect((await currentLiveAccessOf(env.DB, creatorRow))?.stream).toMatchObject({ id: live.id, status: "live" });
    await postJson(`/live/${live.id}/end`, {}, { token: creator.token });
  });
});

describe("tips during a stream", () => {
  it("concurrent tips against a small wallet never overspend; each paid tip reaches every socket with the total", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    const watcher = await createFan();
    await fundWallet(fan.user.userId, 1000);
    const stream = await goLive(creator, { goalCents: 10_000 });
    const studio = await connect(creator, stream.id);
    const other = await connect(watcher, stream.id);

    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        postJson(
          `/live/${stream.id}/tips`,
          { amountCents: 300, note: "go!", idempotencyKey: newKey() },
          { token: fan.token },
        ),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 200, 402, 402, 402, 402, 402]);
    expect(await walletOf(fan)).toBe(100);
    const row = await env.DB.prepare("SELECT tips_cents FROM live_streams WHERE id = ?")
      .bind(stream.id)
      .first<{ tips_cents: number }>();
    expect(row!.tips_cents).toBe(900);
    await until(
      () => framesOf(studio, "tip").length === 3 && framesOf(other, "tip").length === 3,
      "three tips on both sockets",
    );
    expect(framesOf(other, "tip").map((frame) => frame.tip)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          amountCents: 300,
          note: "go!",
          user: expect.objectContaining({ id: fan.user.userId }),
        }),
      ]),
    );
    expect(Math.max(...framesOf(studio, "tip").map((frame) => frame.tipsCents))).toBe(900);
    // A newcomer gets the tips so far in its hello.
    const late = await connect(await createFan(), stream.id);
    expect(late.frames[0]).toMatchObject({ type: "hello", tipsCents: 900 });
    expect((late.frames[0] as Extract<LiveServerFrame, { type: "hello" }>).tips).toHaveLength(3);
    // The creator cannot tip their own stream.
    await fundWallet(creator.user.userId, 500);
    expect(
      (
        await postJson(
          `/live/${stream.id}/tips`,
          { amountCents: 100, idempotencyKey: newKey() },
          { token: creator.token },
        )
      ).status,
    ).toBe(403);
  });
});

describe("a tip during a stream, in round trips", () => {
  it("reads the replay and the access in one round trip, then pays; a replay answers after the stream ended", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await fundWallet(fan.user.userId, 1000);
    const stream = await goLive(creator);
    const fanRow = (await findUserById(env.DB, fan.user.userId))!;
    const { database, calls } = counted(env.DB);
    const ctx = { db: database, publish: () => {}, config: config(env) };
    const input = { amountCents: 250, note: "hi", idempotencyKey: newKey() };
    const tipped = await sendLiveTip(ctx, fanRow, stream.id, input);
    expect(tipped).toMatchObject({ replayed: false, payment: { amountCents: 250, kind: "live_tip" } });
    // The replay lookup and the access check together, then the payment's batch.
    expect(calls).toMatchObject({ single: 0, batches: 2 });
    expect(calls.batchSizes[0]).toBeGreaterThanOrEqual(2);
    // More than the wallet holds: the commit refuses it, and the replay lookup after it finds nothing.
    await expect(
      sendLiveTip(ctx, fanRow, stream.id, { amountCents: 800, idempotencyKey: newKey() }),
    ).rejects.toMatchObject({ code: "payment_required" });

    expect((await postJson(`/live/${stream.id}/end`, {}, { token: creator.token })).status).toBe(200);
    const replay = await sendLiveTip(ctx, fanRow, stream.id, input);
    expect(replay).toEqual({ ...tipped, replayed: true });
    await expect(sendLiveTip(ctx, fanRow, stream.id, { ...input, idempotencyKey: newKey() })).rejects.toMatchObject({
      code: "conflict",
    });
    expect(await walletOf(fan)).toBe(750);
    expect(await auditLedger(env.DB)).toMatchObject({
      unbalancedTransfers: 0,
      negativeAccounts: 0,
      driftedAccounts: 0,
    });
  });
});

describe("the LiveRoom socket", () => {
  it("counts viewers, relays chat to everyone, paces a flood, and lets the creator mute and remove", async () => {
    const creator = await createVerifiedCreator();
    const ann = await createFan();
    const bob = await createFan();
    const stream = await goLive(creator);
    const studio = await connect(creator, stream.id);
    expect(studio.frames[0]).toMatchObject({ type: "hello", role: "creator", viewers: 0 });
    const annSocket = await connect(ann, stream.id);
    const bobSocket = await connect(bob, stream.id);
    expect(annSocket.frames[0]).toMatchObject({ type: "hello", role: "viewer" });
    await until(() => framesOf(studio, "viewers").at(-1)?.count === 2, "two viewers at the creator");
    expect(framesOf(studio, "peer-joined")).toHaveLength(2);
    await eventually(async () =>
      expect(
        await env.DB.prepare("SELECT viewers, peak_viewers FROM live_streams WHERE id = ?").bind(stream.id).first(),
      ).toEqual({ viewers: 2, peak_viewers: 2 }),
    );

    annSocket.socket.send(JSON.stringify({ type: "chat", text: "  hello there  " }));
    await until(
      () => framesOf(bobSocket, "chat").length === 1 && framesOf(studio, "chat").length === 1,
      "the line everywhere",
    );
    expect(framesOf(bobSocket, "chat")[0]!.line).toMatchObject({ text: "hello there", user: { id: ann.user.userId } });
    // Junk and forged frames change nothing.
    annSocket.socket.send("not json");
    annSocket.socket.send(JSON.stringify({ type: "mute", userId: bob.user.userId, muted: true }));
    annSocket.socket.send(JSON.stringify({ type: "tip", amountCents: 100 }));
    // Half a character (a lone surrogate, which no UTF-8 text holds) is dropped like a control character.
    annSocket.socket.send(JSON.stringify({ type: "chat", text: "half \ud800 a character" }));
    annSocket.socket.send(JSON.stringify({ type: "chat", text: "after the broken one" }));
    await until(() => framesOf(bobSocket, "chat").length === 2, "ann's second line");
    expect(framesOf(bobSocket, "chat").map((frame) => frame.line.text)).toEqual([
      "hello there",
      "after the broken one",
    ]);

    for (let i = 0; i < LIVE_CHAT_LINES; i++)
      bobSocket.socket.send(JSON.stringify({ type: "chat", text: `line ${i}` }));
    await until(() => framesOf(annSocket, "chat").length === 2 + LIVE_CHAT_LINES, "bob's lines");
    bobSocket.socket.send(JSON.stringify({ type: "chat", text: "one too many" }));
    await until(() => framesOf(bobSocket, "refused").length === 1, "bob told to slow down");
    expect(framesOf(bobSocket, "refused")[0]!.message).toBe("You are sending messages too fast. Wait a few seconds.");
    for (let i = 0; i < LIVE_CHAT_LINES * 2; i++)
      bobSocket.socket.send(JSON.stringify({ type: "chat", text: `flood ${i}` }));
    await until(() => bobSocket.closed !== null, "the flood closed");
    expect(bobSocket.closed!.code).toBe(LIVE_CLOSE.flood);

    studio.socket.send(JSON.stringify({ type: "mute", userId: ann.user.userId, muted: true }));
    await until(() => framesOf(annSocket, "muted").length === 1, "ann muted");
    annSocket.socket.send(JSON.stringify({ type: "chat", text: "can you hear me" }));
    await until(() => framesOf(annSocket, "refused").length === 1, "ann refused");
    expect(framesOf(studio, "chat").map((frame) => frame.line.text)).not.toContain("can you hear me");

    studio.socket.send(JSON.stringify({ type: "remove", userId: ann.user.userId }));
    await until(() => annSocket.closed !== null, "ann removed");
    expect(annSocket.closed!.code).toBe(LIVE_CLOSE.removed);
    const back = await connect(ann, stream.id);
    expect(back.closed?.code).toBe(LIVE_CLOSE.removed);
    await until(() => framesOf(studio, "viewers").at(-1)?.count === 0, "no viewers left");
  });

  it("relays p2p signalling between the creator and one viewer only, and says when the stream is full", async () => {
    const creator = await createVerifiedCreator();
    const stream = await goLive(creator);
    const studio = await connect(creator, stream.id);
    const viewers: Client[] = [];
    const people: Person[] = [];
    for (let i = 0; i < 8; i++) {
      people.push(await createFan());
      viewers.push(await connect(people[i]!, stream.id));
    }
    const ninth = await connect(await createFan(), stream.id);
    expect(ninth.closed?.code).toBe(LIVE_CLOSE.full);
    // A second tab of someone watching is not one more viewer.
    const secondTab = await connect(people[0]!, stream.id);
    expect(secondTab.closed).toBeNull();

    const peers = framesOf(studio, "peer-joined").map((frame) => frame.peerId);
    const firstPeer = (viewers[0]!.frames[0] as Extract<LiveServerFrame, { type: "hello" }>).peerId;
    const creatorPeer = (studio.frames[0] as Extract<LiveServerFrame, { type: "hello" }>).peerId;
    expect(peers).toContain(firstPeer);
    studio.socket.send(
      JSON.stringify({ type: "signal", to: firstPeer, signal: { description: { type: "offer", sdp: "v=0 offer" } } }),
    );
    await until(() => framesOf(viewers[0]!, "signal").length === 1, "the offer at the viewer");
    expect(framesOf(viewers[0]!, "signal")[0]).toEqual({
      type: "signal",
      from: creatorPeer,
      signal: { description: { type: "offer", sdp: "v=0 offer" } },
    });
    viewers[0]!.socket.send(
      JSON.stringify({
        type: "signal",
        to: creatorPeer,
        signal: { description: { type: "answer", sdp: "v=0 answer" } },
      }),
    );
    await until(() => framesOf(studio, "signal").length === 1, "the answer at the creator");
    // A viewer cannot signal another viewer.
    const secondPeer = (viewers[1]!.frames[0] as Extract<LiveServerFrame, { type: "hello" }>).peerId;
    viewers[0]!.socket.send(JSON.stringify({ type: "signal", to: secondPeer, signal: { candidate: null } }));
    studio.socket.send(JSON.stringify({ type: "signal", to: firstPeer, signal: { candidate: null } }));
    await until(() => framesOf(viewers[0]!, "signal").length === 2, "the creator's candidate");
    expect(framesOf(viewers[1]!, "signal")).toEqual([]);
  });

  it("ends a stream whose creator went silent: in D1, for every viewer, and the room forgets its chat", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    const stream = await goLive(creator);
    const room = liveRoomStub(env, stream.id);
    const viewer = await connect(fan, stream.id);
    viewer.socket.send(JSON.stringify({ type: "chat", text: "hi" }));
    await until(() => framesOf(viewer, "chat").length === 1, "the line");
    // Still alive: the alarm leaves it live.
    expect(await runDurableObjectAlarm(room)).toBe(true);
    expect(await env.DB.prepare("SELECT status FROM live_streams WHERE id = ?").bind(stream.id).first("status")).toBe(
      "live",
    );
    // The creator's last heartbeat is older than LIVE_SILENT_AFTER_MS.
    await runInDurableObject(room, async (_instance: LiveRoom, state) => {
      state.storage.sql.exec(
        "UPDATE room SET value = ? WHERE key = 'heartbeatAt'",
        String(Date.now() - LIVE_SILENT_AFTER_MS - 1000),
      );
    });
    expect(await runDurableObjectAlarm(room)).toBe(true);
    expect(
      await env.DB.prepare("SELECT status, end_reason, viewers FROM live_streams WHERE id = ?").bind(stream.id).first(),
    ).toEqual({ status: "ended", end_reason: "silent", viewers: 0 });
    await until(() => viewer.closed !== null, "the viewer's socket closed");
    expect(framesOf(viewer, "ended")).toEqual([{ type: "ended", reason: "silent" }]);
    expect(viewer.closed!.code).toBe(LIVE_CLOSE.ended);
    // The forgetting alarm: nothing is kept once the stream is over.
    expect(await runDurableObjectAlarm(room)).toBe(true);
    const kept = await runInDurableObject(
      room,
      async (_instance: LiveRoom, state) =>
        state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'chat'").toArray()
          .length,
    );
    expect(kept).toBe(0);
  });

  it("a block either way closes the viewer's sockets at once, and they cannot come back", async () => {
    const creator = await createVerifiedCreator();
    const [ann, bob, cat] = [await createFan(), await createFan(), await createFan()];
    const stream = await goLive(creator);
    const studio = await connect(creator, stream.id);
    const [annSocket, annSecondTab, bobSocket, catSocket] = [
      await connect(ann, stream.id),
      await connect(ann, stream.id),
      await connect(bob, stream.id),
      await connect(cat, stream.id),
    ];
    await until(() => framesOf(studio, "viewers").at(-1)?.count === 3, "three viewers");

    expect((await postJson(`/users/${ann.user.username}/block`, {}, { token: creator.token })).status).toBe(200);
    await until(() => annSocket.closed !== null && annSecondTab.closed !== null, "ann's sockets closed");
    expect(annSocket.closed).toEqual({ code: LIVE_CLOSE.shutOut, reason: "You can no longer watch this stream." });
    expect(annSecondTab.closed!.code).toBe(LIVE_CLOSE.shutOut);
    expect((await upgrade(ann, stream.id)).status).toBe(404);
    // A viewer who blocks the creator leaves too.
    expect((await postJson(`/users/${creator.user.username}/block`, {}, { token: cat.token })).status).toBe(200);
    await until(() => catSocket.closed !== null, "cat's socket closed");
    expect(catSocket.closed!.code).toBe(LIVE_CLOSE.shutOut);
    await until(() => framesOf(studio, "viewers").at(-1)?.count === 1, "one viewer left");
    expect(bobSocket.closed).toBeNull();
    expect(studio.closed).toBeNull();
  });

  it("never broadcasts a frame from a socket the room has closed: a removed viewer who reconnects, a blocked one", async () => {
    const creator = await createVerifiedCreator();
    const [ann, bob, dan] = [await createFan(), await createFan(), await createFan()];
    const stream = await goLive(creator);
    const room = liveRoomStub(env, stream.id);
    const studio = await connect(creator, stream.id);
    const bobSocket = await connect(bob, stream.id);
    await connect(ann, stream.id);
    await connect(dan, stream.id);
    studio.socket.send(JSON.stringify({ type: "remove", userId: ann.user.userId }));
    await until(() => framesOf(studio, "viewers").at(-1)?.count === 2, "ann removed");

    // Ann comes back and talks at once, before the room's close reaches her.
    const back = await upgrade(ann, stream.id);
    expect(back.status).toBe(101);
    back.webSocket!.accept();
    sockets.push(back.webSocket!);
    for (let i = 0; i < 3; i++)
      back.webSocket!.send(JSON.stringify({ type: "chat", text: `removed but talking ${i}` }));

    // Dan is blocked; a frame of his that reaches the room after his socket was closed says nothing.
    await runInDurableObject(room, async (instance: LiveRoom, state) => {
      const danSocket = state.getWebSockets(`user:${dan.user.userId}`)[0]!;
      await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)")
        .bind(creator.user.userId, dan.user.userId, new Date().toISOString())
        .run();
      await instance.shutOut([dan.user.userId]);
      await instance.webSocketMessage(danSocket, JSON.stringify({ type: "chat", text: "blocked but talking" }));
    });

    bobSocket.socket.send(JSON.stringify({ type: "chat", text: "still here" }));
    await until(() => framesOf(studio, "chat").some((frame) => frame.line.text === "still here"), "bob's line");
    expect(framesOf(studio, "chat").map((frame) => frame.line.text)).toEqual(["still here"]);
    expect(framesOf(bobSocket, "chat").map((frame) => frame.line.text)).toEqual(["still here"]);
  });

  it("closes the socket of a viewer whose access ended, on the room's alarm: a subscription that ran out, a follow undone", async () => {
    const creator = await createVerifiedCreator();
    const [lapsed, subscriber, follower] = [await createFan(), await createFan(), await createFan()];
    await subscribe(lapsed.user.userId, creator.user.userId);
    await subscribe(subscriber.user.userId, creator.user.userId);
    await follow(follower.user.userId, creator.user.userId);
    const stream = await goLive(creator, { audience: "followers" });
    const room = liveRoomStub(env, stream.id);
    const studio = await connect(creator, stream.id);
    const [lapsedSocket, subscriberSocket, followerSocket] = [
      await connect(lapsed, stream.id),
      await connect(subscriber, stream.id),
      await connect(follower, stream.id),
    ];
    // Nothing changed: everyone stays.
    expect(await runDurableObjectAlarm(room)).toBe(true);
    expect([lapsedSocket.closed, subscriberSocket.closed, followerSocket.closed]).toEqual([null, null, null]);

    // The lapsed fan's subscription ran out (and the follow that came with it went); the follower unfollowed.
    await env.DB.prepare("UPDATE subscriptions SET current_period_end = ? WHERE fan_id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), lapsed.user.userId)
      .run();
    await env.DB.prepare("DELETE FROM follows WHERE follower_id IN (?, ?)")
      .bind(lapsed.user.userId, follower.user.userId)
      .run();
    expect(await runDurableObjectAlarm(room)).toBe(true);
    await until(() => lapsedSocket.closed !== null && followerSocket.closed !== null, "the two sockets closed");
    expect(lapsedSocket.closed).toEqual({ code: LIVE_CLOSE.shutOut, reason: "You can no longer watch this stream." });
    expect(followerSocket.closed!.code).toBe(LIVE_CLOSE.shutOut);
    // A live subscription still admits (to a followers stream too), and the creator stays on air.
    expect(subscriberSocket.closed).toBeNull();
    expect(studio.closed).toBeNull();
    await until(() => framesOf(studio, "viewers").at(-1)?.count === 1, "one viewer left");
    // Subscribed again, the fan is admitted again.
    await env.DB.prepare("UPDATE subscriptions SET current_period_end = ? WHERE fan_id = ?")
      .bind(new Date(Date.now() + 86_400_000).toISOString(), lapsed.user.userId)
      .run();
    const again = await connect(lapsed, stream.id);
    expect(again.frames[0]).toMatchObject({ type: "hello", role: "viewer" });
  });

  it("refuses visitors, other origins and malformed ids", async () => {
    const creator = await createVerifiedCreator();
    const stream = await goLive(creator);
    const member = await createUser();
    expect(
      (await SELF.fetch(`https://app.test/ws/live/${stream.id}`, { headers: { Upgrade: "websocket" } })).status,
    ).toBe(401);
    expect(
      (
        await SELF.fetch(`https://app.test/ws/live/${stream.id}`, {
          headers: { Upgrade: "websocket", Authorization: `Bearer ${member.token}`, Origin: "https://evil.test" },
        })
      ).status,
    ).toBe(403);
    expect((await upgrade(member, "07")).status).toBe(422);
    expect((await upgrade(member, 999_999)).status).toBe(404);
    expect(
      (
        await SELF.fetch(`https://app.test/ws/live/${stream.id}`, {
          headers: { Authorization: `Bearer ${member.token}` },
        })
      ).status,
    ).toBe(426);
  });
});
