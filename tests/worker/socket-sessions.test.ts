import { env, SELF } from "cloudflare:test";
import { config } from "../../worker/env";
import { devMailbox } from "../../worker/dev/mailbox";
import { afterEach, describe, expect, it, vi } from "vitest";
import { api, createUser, latestMailTo, linkIn, postJson } from "./factories";
import { createFan, createVerifiedCreator } from "./money-fixtures";
import { createAdmin } from "./moderation-support";
import { follow } from "./timeline-fixtures";
import { runScheduledJobs } from "../../worker/jobs";
import { disconnectSessions } from "../../worker/realtime/notify";
import { sweepExpiredRecords } from "../../worker/jobs/sweep-expired-records";
import { until } from "./waits";

/**
 * Every socket kind (the updates channel, a conversation's ChatRoom, a stream's LiveRoom) × every way a session
 * ends (sign-out, a password change's other sessions, a password reset, a suspension, expiry): the socket opened with the
 * ended session closes with 4401, and a socket of a session that goes on stays open.
 */

type Person = Awaited<ReturnType<typeof createUser>>;

interface Client {
  socket: WebSocket;
  frames: string[];
  closed: { code: number } | null;
}

const sockets: WebSocket[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const socket of sockets.splice(0)) {
    try {
      socket.close(1000, "test over");
    } catch {
      // already closed
    }
  }
});

async function connect(path: string, token: string): Promise<Client> {
  const response = await SELF.fetch(`https://app.test${path}`, {
    headers: { Upgrade: "websocket", Authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(101);
  const socket = response.webSocket!;
  const client: Client = { socket, frames: [], closed: null };
  socket.addEventListener("message", (event) => {
    client.frames.push(event.data as string);
  });
  socket.addEventListener("close", (event) => {
    client.closed = { code: event.code };
  });
  socket.accept();
  sockets.push(socket);
  return client;
}

async function signInAgain(person: Person): Promise<string> {
  const response = await postJson(
    "/login",
    { login: person.input.email, password: person.input.password },
    { ip: `10.8.${Math.floor(Math.random() * 250)}.1` },
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/** Where a fan's socket of each kind is opened, with what it takes (a conversation with a creator, a stream). */
const SOCKET_KINDS: Record<string, (fan: Person) => Promise<string>> = {
  updates: async () => "/ws/updates",
  chat: async (fan) => {
    const creator = await createVerifiedCreator();
    await follow(fan.user.userId, creator.user.userId);
    const started = await postJson("/conversations", { username: creator.user.username }, { token: fan.token });
    expect(started.status).toBeLessThan(300);
    return `/ws/conversations/${((await started.json()) as { id: number }).id}`;
  },
  live: async () => {
    const creator = await createVerifiedCreator();
    const started = await postJson(
      "/live",
      { title: "Evening stream", audience: "everyone" },
      { token: creator.token },
    );
    expect(started.status).toBe(201);
    return `/ws/live/${((await started.json()) as { id: number }).id}`;
  },
};

/**
 * Each way a session ends, given the fan's session `ended` (whose socket must close) and `other`: answers whether
 * `other` goes on (a sign-out and a password change made with it end only the first).
 */
const SESSION_ENDS: Record<string, (fan: Person, ended: string, other: string) => Promise<boolean>> = {
  "sign-out": async (_fan, ended) => {
    expect((await postJson("/logout", {}, { token: ended })).status).toBe(200);
    return true;
  },
  "a password change on another device": async (fan, _ended, other) => {
    const newPassword = "a brand new passphrase";
    expect(
      (
        await postJson(
          "/me/password",
          { password: fan.input.password, newPassword, newPasswordConfirmation: newPassword },
          { token: other },
        )
      ).status,
    ).toBe(200);
    return true;
  },
  "a password reset": async (fan) => {
    expect((await postJson("/password/forgot", { email: fan.input.email })).status).toBe(200);
    const token = new URL(linkIn((await latestMailTo(fan.input.email))!.text_body)!).pathname.split("/").pop()!;
    const password = "a brand new passphrase";
    expect((await postJson("/password/reset", { token, password, passwordConfirmation: password })).status).toBe(200);
    return false;
  },
  "a suspension": async (fan) => {
    const [admin, reporter] = [await createAdmin(), await createUser()];
    expect(
      (
        await postJson(
          "/reports",
          { targetKind: "user", username: fan.user.username, reason: "impersonation" },
          { token: reporter.token },
        )
      ).status,
    ).toBe(201);
    const reportId = (await env.DB.prepare(
      "SELECT id FROM reports WHERE target_kind = 'user' AND target_id = ? ORDER BY id DESC",
    )
      .bind(fan.user.userId)
      .first<number>("id"))!;
    expect((await postJson(`/admin/reports/${reportId}/suspendUser`, {}, { token: admin.token })).status).toBe(200);
    return false;
  },
  "its expiry (the cron's sweep)": async (fan) => {
    const { id } = (await env.DB.prepare("SELECT id FROM sessions WHERE user_id = ? ORDER BY id LIMIT 1")
      .bind(fan.user.userId)
      .first<{ id: number }>())!;
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), id)
      .run();
    const deliveries: Promise<unknown>[] = [];
    vi.spyOn(console, "log").mockImplementation(() => {});
    await runScheduledJobs(env, (work) => void deliveries.push(work), devMailbox(env, config(env)), [sweepExpiredRecords]);
    await Promise.all(deliveries);
    return true;
  },
};

describe("a socket outlives no session", () => {
  for (const [kind, socketPath] of Object.entries(SOCKET_KINDS)) {
    for (const [end, endSession] of Object.entries(SESSION_ENDS)) {
      it(`${kind} socket × ${end}: closes with 4401`, async () => {
        const fan = await createFan();
        const other = await signInAgain(fan);
        const path = await socketPath(fan);
        const ended = await connect(path, fan.token);
        const going = await connect(path, other);

        const otherGoesOn = await endSession(fan, fan.token, other);
        expect((await api("/me", { token: fan.token })).status).toBe(401);
        await until(() => ended.closed !== null, "the ended session's socket closed");
        expect(ended.closed!.code).toBe(4401);
        if (otherGoesOn) {
          // The session that goes on keeps its socket, and can open another.
          expect(going.closed).toBeNull();
          expect(going.socket.readyState).toBe(WebSocket.OPEN);
          await connect(path, other);
        } else {
          await until(() => going.closed !== null, "the other session's socket closed");
          expect(going.closed!.code).toBe(4401);
        }
        // Nor can the ended session open a socket again.
        expect(
          (
            await SELF.fetch(`https://app.test${path}`, {
              headers: { Upgrade: "websocket", Authorization: `Bearer ${fan.token}` },
            })
          ).status,
        ).toBe(401);
      });
    }
  }
});

describe("an upgrade checked just before its session ended", () => {
  it("is closed by the room, or refused by the user's channel, once the channel has heard of the end", async () => {
    const fan = await createFan();
    const rooms = [await SOCKET_KINDS.chat!(fan), await SOCKET_KINDS.live!(fan)];
    const { id } = (await env.DB.prepare("SELECT id FROM sessions WHERE user_id = ?")
      .bind(fan.user.userId)
      .first<{ id: number }>())!;
    // The end reaches the channel while the row still stands: what a route that read the session a moment before sees.
    await disconnectSessions(env, fan.user.userId, [id]);
    for (const path of rooms) {
      const client = await connect(path, fan.token);
      await until(() => client.closed !== null, `the socket of ${path} closed`);
      expect(client.closed!.code).toBe(4401);
    }
    expect(
      (
        await SELF.fetch("https://app.test/ws/updates", {
          headers: { Upgrade: "websocket", Authorization: `Bearer ${fan.token}` },
        })
      ).status,
    ).toBe(401);
  });
});
