import { env, SELF } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import type { SignedInDevice } from "@shared/contracts/devices";
import { api, createUser, postJson } from "./factories";
import { stopClockAt } from "./clock";
import { until } from "./waits";

/**
 * Settings → Security's devices through the API: each session with the device and country it signed in from,
 * ending one or all others (their tokens refused, their sockets closed), only one's own, the mail a new device
 * sends, and the last use moving on.
 */

type Person = Awaited<ReturnType<typeof createUser>>;

const FIREFOX_ON_ANDROID = "Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0";
const SAFARI_ON_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const NEW_DEVICE_SUBJECT = "New sign-in to your account";

let ipCounter = 0;

/** A sign-in of `person` from a browser (its User-Agent) in a country (the CF-IPCountry Cloudflare sets). */
async function signInFrom(person: Person, userAgent: string, country: string): Promise<string> {
  ipCounter++;
  const response = await postJson(
    "/login",
    { login: person.input.email, password: person.input.password },
    { ip: `10.9.${ipCounter % 250}.1`, headers: { "User-Agent": userAgent, "CF-IPCountry": country } },
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

async function devicesOf(token: string, headers: HeadersInit = {}): Promise<SignedInDevice[]> {
  const response = await api("/me/sessions", { token, headers });
  expect(response.status).toBe(200);
  return ((await response.json()) as { sessions: SignedInDevice[] }).sessions;
}

const endDevice = (token: string, id: number) => api(`/me/sessions/${id}`, { method: "DELETE", token });
const signedIn = async (token: string) => (await api("/me", { token })).status === 200;

const newDeviceMails = async (person: Person) =>
  (
    await env.DB.prepare("SELECT text_body FROM dev_mailbox WHERE to_address = ? AND subject = ? ORDER BY id")
      .bind(person.input.email.toLowerCase(), NEW_DEVICE_SUBJECT)
      .all<{ text_body: string }>()
  ).results.map((row) => row.text_body);

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

/** The updates socket of a session, and the code it was closed with once it is. */
async function updatesSocket(token: string): Promise<{ closed: () => number | null }> {
  const response = await SELF.fetch("https://app.test/ws/updates", {
    headers: { Upgrade: "websocket", Authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(101);
  const socket = response.webSocket!;
  let code: number | null = null;
  socket.addEventListener("close", (event) => {
    code = event.code;
  });
  socket.accept();
  sockets.push(socket);
  return { closed: () => code };
}

describe("GET /api/me/sessions", () => {
  it("lists each session with its browser, system and country, this one first and marked", async () => {
    const person = await createUser();
    const phone = await signInFrom(person, FIREFOX_ON_ANDROID, "FR");
    const iphone = await signInFrom(person, SAFARI_ON_IPHONE, "US");

    const seen = await devicesOf(phone);
    expect(
      seen.map(({ label, browser, system, country, place, current }) => [
        label,
        browser,
        system,
        country,
        place,
        current,
      ]),
    ).toEqual([
      ["Firefox on Android", "Firefox", "Android", "FR", "France", true],
      ["Safari on iPhone", "Safari", "iPhone", "US", "United States", false],
      // The sign-up's request named neither a browser nor a country.
      ["Unknown device", null, null, "XX", "Unknown place", false],
    ]);
    expect(new Set(seen.map((device) => device.id)).size).toBe(3);
    expect((await devicesOf(iphone)).filter((device) => device.current).map((device) => device.label)).toEqual([
      "Safari on iPhone",
    ]);
    // The country in the reader's language.
    expect((await devicesOf(phone, { "Accept-Language": "de" }))[0]!.place).toBe("Frankreich");
    // Nobody else's sessions.
    const stranger = await createUser();
    expect((await devicesOf(stranger.token)).length).toBe(1);
  });

  it("keeps the region a US request names beside its country", async () => {
    const person = await createUser();
    ipCounter++;
    const response = await postJson(
      "/login",
      { login: person.input.email, password: person.input.password },
      { ip: `10.9.${ipCounter % 250}.2`, headers: { "CF-IPCountry": "US", "CF-Region-Code": "CA" } },
    );
    const { token } = (await response.json()) as { token: string };
    expect((await devicesOf(token))[0]!.place).toBe("CA, United States");
  });
});

describe("ending sessions", () => {
  it("DELETE /api/me/sessions/{id} ends that session: its token is refused and its socket closes with 4401", async () => {
    const person = await createUser();
    const phone = await signInFrom(person, FIREFOX_ON_ANDROID, "FR");
    const phoneSocket = await updatesSocket(phone);
    const mySocket = await updatesSocket(person.token);
    const phoneId = (await devicesOf(phone)).find((device) => device.current)!.id;

    expect((await endDevice(person.token, phoneId)).status).toBe(204);
    expect(await signedIn(phone)).toBe(false);
    await until(() => phoneSocket.closed() !== null, "the ended session's socket closed");
    expect(phoneSocket.closed()).toBe(4401);
    // This device goes on.
    expect(await signedIn(person.token)).toBe(true);
    expect(mySocket.closed()).toBeNull();
    expect((await devicesOf(person.token)).map((device) => device.label)).toEqual(["Unknown device"]);
    // Ended once: a second time it is not there.
    expect((await endDevice(person.token, phoneId)).status).toBe(404);
  });

  it("POST /api/me/sessions/end-others ends every session but this one", async () => {
    const person = await createUser();
    const phone = await signInFrom(person, FIREFOX_ON_ANDROID, "FR");
    const iphone = await signInFrom(person, SAFARI_ON_IPHONE, "US");
    const sockets = [await updatesSocket(person.token), await updatesSocket(iphone)];
    const phoneSocket = await updatesSocket(phone);

    const response = await postJson("/me/sessions/end-others", {}, { token: phone });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: "Every other device has been signed out.", ended: 2 });
    expect([await signedIn(person.token), await signedIn(iphone), await signedIn(phone)]).toEqual([false, false, true]);
    for (const socket of sockets) await until(() => socket.closed() !== null, "another session's socket closed");
    expect(sockets.map((socket) => socket.closed())).toEqual([4401, 4401]);
    expect(phoneSocket.closed()).toBeNull();
    expect((await devicesOf(phone)).map((device) => [device.label, device.current])).toEqual([
      ["Firefox on Android", true],
    ]);
  });

  it("another person's session is a 404 and goes on", async () => {
    const [person, stranger] = [await createUser(), await createUser()];
    const theirId = (await devicesOf(stranger.token))[0]!.id;
    expect((await endDevice(person.token, theirId)).status).toBe(404);
    expect(await signedIn(stranger.token)).toBe(true);
    expect((await endDevice(person.token, 987_654_321)).status).toBe(404);
  });

  it("asks for a session", async () => {
    expect((await api("/me/sessions")).status).toBe(401);
    expect((await postJson("/me/sessions/end-others", {})).status).toBe(401);
  });
});

describe("a new device's sign-in", () => {
  it("mails the owner once, with the device, the place and the way to the devices; never for a known device", async () => {
    const person = await createUser();
    // The sign-up is the account's first device: no mail.
    expect(await newDeviceMails(person)).toEqual([]);

    const phone = await signInFrom(person, FIREFOX_ON_ANDROID, "FR");
    const mails = await newDeviceMails(person);
    expect(mails.length).toBe(1);
    expect(mails[0]).toContain("Firefox on Android, France");
    expect(mails[0]).toContain("https://app.test/settings/security");

    // Signed out and in again, the same browser and system in the same country are known.
    expect((await postJson("/logout", {}, { token: phone })).status).toBe(200);
    await signInFrom(person, FIREFOX_ON_ANDROID, "FR");
    expect((await newDeviceMails(person)).length).toBe(1);

    // The same phone in another country is new; so is another browser.
    await signInFrom(person, FIREFOX_ON_ANDROID, "ES");
    await signInFrom(person, SAFARI_ON_IPHONE, "FR");
    const all = await newDeviceMails(person);
    expect(all.length).toBe(3);
    expect(all[1]).toContain("Firefox on Android, Spain");
    expect(all[2]).toContain("Safari on iPhone, France");
  });
});

describe("last active", () => {
  it("moves on when the session is read from D1 and is an hour old, not sooner", async () => {
    const start = new Date("2031-03-04T10:00:00.000Z");
    stopClockAt(start);
    const person = await createUser();
    const lastActive = async () => (await devicesOf(person.token))[0]!.lastActiveAt;
    expect(await lastActive()).toBe(start.toISOString());
    // A write reads its session from D1 every time (a read may use the isolate's copy).
    const write = async () =>
      expect((await postJson("/me/sessions/end-others", {}, { token: person.token })).status).toBe(200);

    stopClockAt(new Date(start.getTime() + 59 * 60_000));
    await write();
    expect(await lastActive()).toBe(start.toISOString());

    const later = new Date(start.getTime() + 61 * 60_000);
    stopClockAt(later);
    await write();
    expect(await lastActive()).toBe(later.toISOString());
    expect((await devicesOf(person.token))[0]!.createdAt).toBe(start.toISOString());
  });
});
