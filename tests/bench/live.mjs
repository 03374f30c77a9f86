/* global localStorage, window, document, requestAnimationFrame -- these run inside the page (page.evaluate, addInitScript). */
// The live stream figures, over loopback against the local server (figures, no assertions):
//   1. chat fan-out: a viewer's chat line reaching 500 viewer sockets of one LiveRoom; per delivery and until the
//      last socket has it, p50/p95 over 50 lines from 50 viewers; reference: a ping answered by the same room
//      (its auto-response, no code of ours), same run. The p2p cap would refuse 500 viewers, so this part runs on
//      a second server configured for `whip` (nothing is published: only the room is measured);
//   2. time to first frame, p2p: a viewer opening /live/{id} until its video has a frame, in Chromium with a fake
//      camera, p50/p95 over 10 viewers one after another; reference: the same page's load event.
import { randomBytes } from "node:crypto";
import { clearInterval, setInterval } from "node:timers";
import { chromium } from "playwright-core";
import { startDevServer } from "../support/dev-server.mjs";
import { personSql, seed } from "./chat.mjs";
import { percentile } from "./measure.mjs";

const VIEWERS = Number(process.env.BENCH_LIVE_VIEWERS ?? 500);
const LINES = Number(process.env.BENCH_LIVE_LINES ?? 50);
const FIRST_FRAMES = Number(process.env.BENCH_LIVE_FIRST_FRAMES ?? 10);
const WHIP_STATE_DIR = "tests/bench/.state-whip";

const figures = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms   p95 ${percentile(sorted, 95).toFixed(1)} ms`;
};

async function goLive(baseURL, token, title) {
  const response = await fetch(`${baseURL}/api/live`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ title, audience: "everyone" }),
  });
  if (response.status !== 201) throw new Error(`POST /api/live: ${response.status} ${await response.text()}`);
  return (await response.json()).id;
}

/** A LiveRoom socket that records when each chat line arrived (by text) and answers pings. */
async function openLiveSocket(baseURL, streamId, token, onLine) {
  const socket = new WebSocket(`${baseURL.replace("http", "ws")}/ws/live/${streamId}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  let pong = null;
  socket.addEventListener("message", (event) => {
    if (event.data === "pong") return pong?.(performance.now());
    const frame = JSON.parse(event.data);
    if (frame.type === "chat") onLine(frame.line.text, performance.now());
  });
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", () => reject(new Error("a LiveRoom socket did not open")), { once: true });
  });
  return {
    send: (frame) => socket.send(JSON.stringify(frame)),
    ping: () => new Promise((resolve) => (pong = resolve)).finally(() => (pong = null)),
    rawSend: (text) => socket.send(text),
    close: () => socket.close(1000),
  };
}

async function benchChatFanOut() {
  const server = await startDevServer({
    stateDir: WHIP_STATE_DIR,
    vars: {
      RATE_LIMIT_SCALE: "100000",
      LIVE_TRANSPORT: "whip",
      LIVE_WHIP_URL: "http://127.0.0.1:9/whip/{stream}",
      LIVE_WHEP_URL: "http://127.0.0.1:9/whep/{stream}",
    },
    requestLog: false,
  });
  const sockets = [];
  try {
    const tag = randomBytes(3).toString("hex");
    const creator = { username: `live_creator_${tag}`, token: randomBytes(32).toString("base64url") };
    const viewers = Array.from({ length: VIEWERS }, (_, i) => ({
      username: `live_viewer_${tag}_${i}`,
      token: randomBytes(32).toString("base64url"),
    }));
    await seed(
      server.baseURL,
      WHIP_STATE_DIR,
      [
        personSql(creator.username, "creator", creator.token),
        ...viewers.map((v) => personSql(v.username, "member", v.token)),
      ].join("\n"),
    );
    const streamId = await goLive(server.baseURL, creator.token, "Fan-out bench");

    const arrivals = new Map(); // text → arrival times
    const record = (text, at) => {
      const list = arrivals.get(text);
      if (list) list.push(at);
      else arrivals.set(text, [at]);
    };
    // Opened a few at a time, as a crowd arrives; the creator's socket keeps the stream alive.
    const creatorSocket = await openLiveSocket(server.baseURL, streamId, creator.token, () => {});
    const beat = setInterval(() => creatorSocket.send({ type: "heartbeat" }), 5000);
    for (let i = 0; i < viewers.length; i += 25) {
      sockets.push(
        ...(await Promise.all(
          viewers.slice(i, i + 25).map((viewer) => openLiveSocket(server.baseURL, streamId, viewer.token, record)),
        )),
      );
    }
    // Let the viewer-count frames of the arrivals settle.
    await new Promise((resolve) => setTimeout(resolve, 2000));

    const pings = [];
    for (let i = 0; i < 50; i++) {
      const started = performance.now();
      const answered = sockets[i % sockets.length].ping();
      sockets[i % sockets.length].rawSend("ping");
      pings.push((await answered) - started);
    }

    const perDelivery = [];
    const untilAll = [];
    for (let line = 0; line < LINES; line++) {
      const text = `line ${line} ${tag}`;
      const sender = sockets[line % sockets.length];
      const sentAt = performance.now();
      sender.send({ type: "chat", text });
      const deadline = Date.now() + 10_000;
      while ((arrivals.get(text)?.length ?? 0) < sockets.length && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 2));
      const times = arrivals.get(text) ?? [];
      if (times.length < sockets.length)
        console.warn(`line ${line} reached ${times.length} of ${sockets.length} sockets`);
      for (const at of times) perDelivery.push(at - sentAt);
      untilAll.push(Math.max(...times) - sentAt);
    }
    clearInterval(beat);
    creatorSocket.close();

    console.log(`\nLive chat (one LiveRoom, ${sockets.length} viewer sockets, ${LINES} lines from ${LINES} viewers)`);
    console.log(`ping → pong on a room socket (reference)   ${figures(pings)}`);
    console.log(
      `chat line → each viewer socket             ${figures(perDelivery)}   (p50 = ${(
        percentile(
          [...perDelivery].sort((a, b) => a - b),
          50,
        ) /
        percentile(
          [...pings].sort((a, b) => a - b),
          50,
        )
      ).toFixed(1)}× the reference)`,
    );
    console.log(`chat line → the last of ${sockets.length} sockets          ${figures(untilAll)}`);
  } finally {
    for (const socket of sockets) socket.close();
    server.stop();
  }
}

/** Signs a person up through the API (a real password: the browser signs in with it). */
async function signUp(baseURL, username) {
  const person = {
    username,
    name: username,
    email: `${username}@example.test`,
    password: "a long bench passphrase",
    dateOfBirth: "1990-01-01",
    accountType: "other",
  };
  const response = await fetch(`${baseURL}/api/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(person),
  });
  if (response.status !== 201) throw new Error(`signup failed: ${response.status} ${await response.text()}`);
  return person;
}

/** p2p: how long a viewer waits for the first frame, against the same page's load. */
async function benchFirstFrame(baseURL, stateDir) {
  const tag = randomBytes(3).toString("hex");
  const creator = await signUp(baseURL, `live_star_${tag}`);
  const viewer = await signUp(baseURL, `live_fan_${tag}`);
  await seed(
    baseURL,
    stateDir,
    `UPDATE users SET role = 'creator', email_verified_at = '2026-01-01T00:00:00.000Z' WHERE username = '${creator.username}';`,
  );
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
      "--allow-loopback-in-peer-connection",
    ],
  });
  /** A context signed in as the person: the session cookie from the sign-in, and the token the page keeps. */
  const asPerson = async (person) => {
    const context = await browser.newContext({ baseURL, serviceWorkers: "block" });
    const login = await context.request.post("/api/login", {
      data: { login: person.email, password: person.password },
    });
    if (!login.ok()) throw new Error(`sign-in failed: ${login.status()}`);
    const { token } = await login.json();
    await context.addInitScript((value) => localStorage.setItem("token", value), token);
    return context;
  };
  try {
    const studio = await (await asPerson(creator)).newPage();
    await studio.goto("/live/start");
    await studio.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await studio.getByLabel("Title").fill("First frame bench");
    await studio.getByRole("button", { name: "Go live", exact: true }).click();
    await studio.getByRole("button", { name: "End stream" }).waitFor();
    const streamId = Number(
      await studio.evaluate(
        async () =>
          (
            await (
              await fetch("/api/live/current", {
                headers: { Authorization: `Bearer ${localStorage.getItem("token")}` },
              })
            ).json()
          ).stream.id,
      ),
    );

    const loads = [];
    const frames = [];
    for (let i = 0; i < FIRST_FRAMES; i++) {
      const context = await asPerson(viewer);
      await context.addInitScript(() => {
        const check = () => {
          const video = document.querySelector("[data-live-video]");
          if (video && video.videoWidth > 0) window.__firstFrameAt = performance.now();
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      });
      const page = await context.newPage();
      await page.goto(`/live/${streamId}`);
      await page.waitForFunction(() => window.__firstFrameAt !== undefined, null, { timeout: 30_000 });
      const { load, frame } = await page.evaluate(() => ({
        load: performance.getEntriesByType("navigation")[0].loadEventEnd,
        frame: window.__firstFrameAt,
      }));
      loads.push(load);
      frames.push(frame);
      await context.close();
    }
    await studio.getByRole("button", { name: "End stream" }).click();

    const sortedLoads = [...loads].sort((a, b) => a - b);
    const sortedFrames = [...frames].sort((a, b) => a - b);
    console.log(`\nLive video, p2p on loopback (${FIRST_FRAMES} viewers one after another, Chromium, fake camera)`);
    console.log(`/live/{id} load event (reference)          ${figures(loads)}`);
    console.log(
      `/live/{id} → first video frame             ${figures(frames)}   (p50 = ${(percentile(sortedFrames, 50) / percentile(sortedLoads, 50)).toFixed(1)}× the reference)`,
    );
  } finally {
    await browser.close();
  }
}

export async function benchLive(baseURL, stateDir) {
  await benchChatFanOut();
  await benchFirstFrame(baseURL, stateDir);
}
