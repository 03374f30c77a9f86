import { env, runInDurableObject, SELF } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { disconnectSessions, notifyUser, userChannelStub } from "../../worker/realtime/notify";
import type { UserChannel } from "../../worker/realtime/user-channel";
import { until, within } from "./waits";
import { createUser, latestMailTo, linkIn, postJson } from "./factories";

const URL_WS = "https://app.test/ws/updates";
/** How long a socket must stay silent for "received nothing". */
const QUIET_MS = 300;

interface Client {
  socket: WebSocket;
  frames: string[];
  closed: Promise<CloseEvent>;
}

const open: WebSocket[] = [];

function upgrade(init: { token?: string; headers?: Record<string, string> } = {}) {
  const headers = new Headers({ Upgrade: "websocket", ...init.headers });
  if (init.token) headers.set("Authorization", `Bearer ${init.token}`);
  return SELF.fetch(URL_WS, { headers });
}

/** Opens a socket and starts recording frames before anything can be sent to it. */
async function connect(init: { token?: string; headers?: Record<string, string> }): Promise<Client> {
  const response = await upgrade(init);
  expect(response.status).toBe(101);
  const socket = response.webSocket;
  if (!socket) throw new Error("101 without a webSocket");
  const frames: string[] = [];
  socket.addEventListener("message", (event) => {
    frames.push(typeof event.data === "string" ? event.data : "<binary>");
  });
  const closed = new Promise<CloseEvent>((resolve) => socket.addEventListener("close", resolve, { once: true }));
  socket.accept();
  open.push(socket);
  return { socket, frames, closed };
}

const quiet = () => new Promise((resolve) => setTimeout(resolve, QUIET_MS));

const socketCount = (userId: number) => userChannelStub(env, userId).socketCount();

// Isolated storage: no socket may outlive its test.
afterEach(async () => {
  for (const socket of open.splice(0)) {
    try {
      socket.close(1000, "test over");
    } catch {
      // already closed
    }
  }
});

describe("GET /ws/updates", () => {
  it("delivers NewUpdate to the notified user's socket and to no one else's", async () => {
    const [a, b] = [await createUser(), await createUser()];
    const socketA = await connect({ token: a.token });
    const socketB = await connect({ token: b.token });

    await notifyUser(env, a.user.userId);
    await until(() => socketA.frames.length > 0, "A's event");
    await quiet();
    expect(socketA.frames).toEqual([JSON.stringify({ event: "NewUpdate" })]);
    expect(socketB.frames).toEqual([]);

    // B's socket does listen: the silence above was not a dead socket.
    await notifyUser(env, b.user.userId);
    await until(() => socketB.frames.length > 0, "B's event");
    expect(JSON.parse(socketB.frames[0]!)).toEqual({ event: "NewUpdate" });
    expect(socketA.frames).toHaveLength(1);
  });

  it("a write for A (a notification) reaches A's socket, then the count it announces, and never B's", async () => {
    const [a, b] = [await createUser(), await createUser()];
    const socketA = await connect({ token: a.token });
    const socketB = await connect({ token: b.token });
    expect((await postJson("/notifications/test", {}, { token: a.token })).status).toBe(201);
    await until(() => socketA.frames.length > 0, "A's event");
    await quiet();
    expect(socketA.frames).toEqual([JSON.stringify({ event: "NewUpdate" })]);
    expect(socketB.frames).toEqual([]);
    const updates = (await (
      await SELF.fetch("https://app.test/api/updates", { headers: { Authorization: `Bearer ${a.token}` } })
    ).json()) as { updates: { notifications: number } };
    expect(updates.updates.notifications).toBe(1);

    // B's socket is alive: B's own write reaches it.
    expect((await postJson("/notifications/test", {}, { token: b.token })).status).toBe(201);
    await until(() => socketB.frames.length > 0, "B's event");
    expect(socketA.frames).toHaveLength(1);
  });

  it("reaches every socket of the user (several tabs or devices)", async () => {
    const a = await createUser();
    const first = await connect({ token: a.token });
    const second = await connect({ token: a.token });
    expect(await socketCount(a.user.userId)).toBe(2);

    await notifyUser(env, a.user.userId);
    await until(() => first.frames.length > 0 && second.frames.length > 0, "both events");
    expect(first.frames).toEqual(['{"event":"NewUpdate"}']);
    expect(second.frames).toEqual(['{"event":"NewUpdate"}']);
  });

  it("signs in with the session cookie from the same origin", async () => {
    const a = await createUser();
    const client = await connect({ headers: { Cookie: `__Host-session=${a.token}`, Origin: "https://app.test" } });
    await notifyUser(env, a.user.userId);
    await until(() => client.frames.length > 0, "the event");
    expect(client.frames).toEqual(['{"event":"NewUpdate"}']);
  });

  it("answers ping with pong", async () => {
    const a = await createUser();
    const client = await connect({ token: a.token });
    client.socket.send("ping");
    await until(() => client.frames.length > 0, "pong");
    expect(client.frames).toEqual(["pong"]);
  });

  it("refuses a request without a session, with a revoked session, from another origin, or without Upgrade", async () => {
    const a = await createUser();

    const anonymous = await upgrade();
    expect(anonymous.status).toBe(401);
    expect(anonymous.webSocket).toBeNull();
    expect(await anonymous.json()).toEqual({ message: "Unauthenticated.", errors: {} });

    const foreign = await upgrade({ token: a.token, headers: { Origin: "https://evil.test" } });
    expect(foreign.status).toBe(403);
    expect(foreign.webSocket).toBeNull();
    expect(await foreign.json()).toMatchObject({ errors: {} });
    const foreignCookie = await upgrade({
      headers: { Cookie: `__Host-session=${a.token}`, Origin: "https://evil.test" },
    });
    expect(foreignCookie.status).toBe(403);

    const plain = await SELF.fetch(URL_WS, { headers: { Authorization: `Bearer ${a.token}` } });
    expect(plain.status).toBe(426);
    expect(plain.headers.get("Upgrade")).toBe("websocket");
    expect(await plain.json()).toMatchObject({ errors: {} });

    expect(await socketCount(a.user.userId)).toBe(0);

    expect((await postJson("/logout", {}, { token: a.token })).status).toBe(200);
    const revoked = await upgrade({ token: a.token });
    expect(revoked.status).toBe(401);
    expect(revoked.webSocket).toBeNull();
  });

  it("takes the user from the session only, whatever the URL says", async () => {
    const [a, b] = [await createUser(), await createUser()];
    const headers = new Headers({ Upgrade: "websocket", Authorization: `Bearer ${a.token}` });
    const response = await SELF.fetch(`${URL_WS}?userId=${b.user.userId}&channel=updates.${b.user.userId}`, {
      headers,
    });
    expect(response.status).toBe(101);
    response.webSocket!.accept();
    open.push(response.webSocket!);
    expect(await socketCount(a.user.userId)).toBe(1);
    expect(await socketCount(b.user.userId)).toBe(0);
  });

  it("keeps the security headers off the handshake but on its refusals", async () => {
    const a = await createUser();
    const refused = await upgrade();
    expect(refused.headers.get("Content-Security-Policy")).toContain("default-src 'self'");
    const response = await upgrade({ token: a.token });
    expect(response.status).toBe(101);
    expect(response.headers.get("Content-Security-Policy")).toBeNull();
    response.webSocket!.accept();
    open.push(response.webSocket!);
    expect(response.webSocket!.readyState).toBe(1); // open
  });

  it("a password reset closes every socket of the account, and no one else's", async () => {
    const a = await createUser();
    const b = await createUser();
    const second = (await (await postJson("/login", { login: a.input.email, password: a.input.password })).json()) as {
      token: string;
    };
    const [first, other, bystander] = [
      await connect({ token: a.token }),
      await connect({ token: second.token }),
      await connect({ token: b.token }),
    ];
    expect((await postJson("/password/forgot", { email: a.input.email })).status).toBe(200);
    const resetToken = new URL(linkIn((await latestMailTo(a.input.email))!.text_body)!).pathname.split("/").pop()!;
    const reset = await postJson("/password/reset", {
      token: resetToken,
      password: "a brand new passphrase",
      passwordConfirmation: "a brand new passphrase",
    });
    expect(reset.status).toBe(200);
    expect((await within(first.closed, "the first session's socket closed")).code).toBe(4401);
    expect((await within(other.closed, "the second session's socket closed")).code).toBe(4401);
    expect(await socketCount(b.user.userId)).toBe(1);
    expect(bystander.socket.readyState).toBe(1);
  });

  it("closes a session's sockets with 4401 when asked, leaving the user's other sessions connected", async () => {
    const a = await createUser();
    const second = (await (await postJson("/login", { login: a.input.email, password: a.input.password })).json()) as {
      token: string;
    };
    const ended = await connect({ token: a.token });
    const other = await connect({ token: second.token });
    const { id: sessionId } = (await env.DB.prepare("SELECT id FROM sessions WHERE user_id = ? ORDER BY id LIMIT 1")
      .bind(a.user.userId)
      .first<{ id: number }>())!;

    await disconnectSessions(env, a.user.userId, [sessionId]);
    const event = await within(ended.closed, "the ended session's socket closed");
    expect(event.code).toBe(4401);

    await notifyUser(env, a.user.userId);
    await until(() => other.frames.length > 0, "the other session's event");
    expect(ended.frames).toEqual([]);
  });

  it("notifying a user without sockets, or one that does not exist, resolves quietly", async () => {
    const a = await createUser();
    await expect(notifyUser(env, a.user.userId)).resolves.toBeUndefined();
    await expect(notifyUser(env, 987654321, { event: "NewUpdate" })).resolves.toBeUndefined();
    expect(await socketCount(a.user.userId)).toBe(0);
  });

  it("a socket that can no longer be sent to is skipped: the user's other sockets still get the event", async () => {
    const a = await createUser();
    const first = await connect({ token: a.token });
    const second = await connect({ token: a.token });
    const reached = await runInDurableObject(
      userChannelStub(env, a.user.userId),
      async (channel: UserChannel, state) => {
        // The server side of one socket closes first: sending to it now throws, as to a socket that died.
        const [dead] = state.getWebSockets();
        dead!.close(1000, "gone");
        expect(() => dead!.send("probe")).toThrow();
        return channel.broadcast({ event: "NewUpdate" });
      },
    );
    expect(reached).toBe(1);
    await until(() => first.frames.length + second.frames.length > 0, "the event on the live socket");
    expect([...first.frames, ...second.frames]).toEqual(['{"event":"NewUpdate"}']);
  });

  it("never throws, even when the binding fails", async () => {
    const broken = { ...env, USER_CHANNEL: undefined } as unknown as typeof env;
    await expect(notifyUser(broken, 1)).resolves.toBeUndefined();
  });
});
