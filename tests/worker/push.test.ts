import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { config } from "../../worker/env";
import { subscribeDevice } from "../../worker/domain/push/devices";
import type { PushJob } from "../../worker/domain/push/jobs";
import { pushPayloadFor } from "../../worker/domain/push/push-payload";
import { getPushSettings } from "../../worker/domain/push/settings";
import { translatorFor } from "../../worker/domain/i18n";
import { consumePush } from "../../worker/push/queue";
import { deliverToPush } from "../../worker/push/delivery";
import { sendTip } from "../../worker/domain/money/send-tip";
import { likePost } from "../../worker/domain/interactions/like-post";
import { sendMessage as sendMessageAs } from "../../worker/domain/messages/send-message";
import { findUserById } from "../../worker/domain/accounts/users";
import type { DomainEvent } from "../../worker/domain/events";
import { decryptPush, fromBase64Url, toBase64Url, type DeviceKeys } from "../support/push-decrypt";
import { api, createUser, postJson } from "./factories";
import { counted } from "./counted-db";
import { createFan, createVerifiedCreator, fundWallet, newKey } from "./money-fixtures";
import { createPost, follow, makeCreator, PNG } from "./timeline-fixtures";

type Member = Awaited<ReturnType<typeof createUser>>;

const NOT_A_PUSH_SERVICE =
  "Push notifications can only go through a browser's push service: this address is not one this server sends to.";
/** What an attacker may hand over as a device's endpoint (the worker tier lists only push.example.test). */
const NOT_PUSH_SERVICES = [
  "https://127.0.0.1:1/x",
  "https://127.0.0.1/x",
  "https://2130706433/x",
  "https://0x7f000001/x",
  "https://0177.0.0.1/x",
  "https://127.1/x",
  "https://[::1]/x",
  "https://[::ffff:127.0.0.1]/x",
  "https://169.254.169.254/latest/meta-data",
  "https://localhost/x",
  "https://push.localhost/x",
  "https://printer.local/x",
  "https://metadata.google.internal/x",
  "https://metadata/x",
  "https://user:pw@push.example.test/x",
  "https://push.example.test@evil.example/x",
  "https://push.example.test:8443/x",
  "https://push.example.test:1/x",
  "http://push.example.test/x",
  "ftp://push.example.test/x",
  "https://evil.example/x",
  "https://push.example.test.evil.example/x",
  "https://sub.push.example.test/x",
  "https://fcm.googleapis.com/fcm/send/x",
  "http://127.0.0.1:9/x",
  "not a url",
];

const PUSH_HOST = "push.example.test";
const ANDROID_CHROME =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";

/** What the fake push service received: one request per push. */
interface Received {
  endpoint: string;
  headers: Headers;
  redirect: RequestRedirect;
  body: Uint8Array<ArrayBuffer>;
}
let received: Received[] = [];
/** Every URL the Worker fetched during a test, push service or not. */
let contacted: string[] = [];
/** How the fake push service answers (201 Created unless a test says otherwise), or throws for "no answer". */
let answer: (endpoint: string) => Response | Promise<Response> = () => new Response(null, { status: 201 });

beforeEach(() => {
  received = [];
  contacted = [];
  answer = () => new Response(null, { status: 201 });
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    contacted.push(request.url);
    if (new URL(request.url).hostname !== PUSH_HOST) return realFetch(input, init);
    received.push({
      endpoint: request.url,
      headers: request.headers,
      redirect: request.redirect,
      body: new Uint8Array(await request.arrayBuffer()),
    });
    return answer(request.url);
  });
});
afterEach(() => vi.restoreAllMocks());

interface Device extends DeviceKeys {
  endpoint: string;
}

/** A browser's push subscription: a fresh P-256 key pair and auth secret, and an endpoint at the fake service. */
async function newDevice(): Promise<Device> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ])) as CryptoKeyPair;
  const publicKey = toBase64Url(new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer));
  const { d } = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
  return {
    endpoint: `https://${PUSH_HOST}/send/${newKey()}`,
    publicKey,
    privateKey: d!,
    auth: toBase64Url(crypto.getRandomValues(new Uint8Array(16))),
  };
}

const subscribeBody = (device: Device) => ({
  endpoint: device.endpoint,
  keys: { p256dh: device.publicKey, auth: device.auth },
});

async function subscribed(
  member: Member,
  device?: Device,
  userAgent = ANDROID_CHROME,
): Promise<Device & { id: number }> {
  const chosen = device ?? (await newDevice());
  const response = await postJson("/push/subscriptions", subscribeBody(chosen), {
    token: member.token,
    headers: { "User-Agent": userAgent },
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return { ...chosen, id: ((await response.json()) as { id: number }).id };
}

interface Payload {
  title: string;
  body: string;
  url: string;
  tag: string;
  badge: number;
}

const payloadOf = async (push: Received, device: Device) =>
  JSON.parse(new TextDecoder().decode(await decryptPush(push.body, device))) as Payload;

const pushesTo = (device: Device) => received.filter((push) => push.endpoint === device.endpoint);

async function conversationBetween(from: Member, to: Member): Promise<number> {
  const response = await postJson("/conversations", { username: to.user.username }, { token: from.token });
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: number }).id;
}

const sendMessage = async (from: Member, conversationId: number, body: Record<string, unknown>) => {
  const response = await postJson(
    `/conversations/${conversationId}/messages`,
    { clientId: newKey(), mediaIds: [], priceCents: 0, ...body },
    { token: from.token },
  );
  expect(response.status, await response.clone().text()).toBe(200);
};

const deviceRow = (id: number) =>
  env.DB.prepare("SELECT id, last_sent_at FROM push_subscriptions WHERE id = ?")
    .bind(id)
    .first<{ id: number; last_sent_at: string | null }>();

describe("the test helper that decrypts pushes", () => {
  it("decrypts RFC 8291 Appendix A's example to its plaintext", async () => {
    // RFC 8291 Appendix A, with its line breaks removed.
    const body = fromBase64Url(
      "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN",
    );
    const device = {
      publicKey: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
      privateKey: "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94",
      auth: "BTBZMqHH6r4Tts7J_aSIgg",
    };
    expect(new TextDecoder().decode(await decryptPush(body, device))).toBe("When I grow up, I want to be a watermelon");
    // Another auth secret does not authenticate.
    await expect(decryptPush(body, { ...device, auth: "AAAAAAAAAAAAAAAAAAAAAA" })).rejects.toThrow();
  });
});

describe("push settings and devices", () => {
  it("offers the VAPID public key, every kind on, and lists the devices named from their user agent", async () => {
    const member = await createUser();
    const before = await (await api("/push", { token: member.token })).json();
    expect(before).toEqual({
      enabled: true,
      publicKey: env.VAPID_PUBLIC_KEY,
      preferences: { messages: true, posts: true, earnings: true, subscriptions: true, interactions: true, live: true },
      devices: [],
    });
    const phone = await subscribed(member);
    await subscribed(
      member,
      undefined,
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:128.0) Gecko/20100101 Firefox/128.0",
    );
    const { devices } = (await (await api("/push", { token: member.token })).json()) as {
      devices: { id: number; label: string; endpoint: string; language: string; lastSentAt: string | null }[];
    };
    expect(devices.map((d) => [d.label, d.language, d.lastSentAt])).toEqual([
      ["Chrome on Android", "en", null],
      ["Firefox on macOS", "en", null],
    ]);
    expect(devices[0]!.endpoint).toBe(phone.endpoint);
  });

  it("subscribing a known endpoint again updates it, and moves it to the account that subscribed last", async () => {
    const [first, second] = [await createUser(), await createUser()];
    const device = await newDevice();
    const a = await subscribed(first, device);
    const again = await subscribed(first, device);
    expect(again.id).toBe(a.id);
    const moved = await subscribed(second, device);
    expect(moved.id).toBe(a.id);
    expect(((await (await api("/push", { token: first.token })).json()) as { devices: unknown[] }).devices).toEqual([]);
    expect(
      ((await (await api("/push", { token: second.token })).json()) as { devices: { id: number }[] }).devices.map(
        (d) => d.id,
      ),
    ).toEqual([a.id]);
  });

  it("removes only the caller's own device: another account's is a 404", async () => {
    const [owner, other] = [await createUser(), await createUser()];
    const device = await subscribed(owner);
    const refused = await api(`/push/subscriptions/${device.id}`, { method: "DELETE", token: other.token });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({
      message: "This device does not receive your push notifications.",
      errors: {},
    });
    expect(await deviceRow(device.id)).not.toBeNull();
    expect((await api(`/push/subscriptions/${device.id}`, { method: "DELETE", token: owner.token })).status).toBe(204);
    expect(await deviceRow(device.id)).toBeNull();
  });

  it("refuses an endpoint that is not a push service's https URL, a key that is not a P-256 point, and a 21st device", async () => {
    const member = await createUser();
    const device = await newDevice();
    const post = (body: unknown) => postJson("/push/subscriptions", body, { token: member.token });
    for (const endpoint of NOT_PUSH_SERVICES) {
      const response = await post({ ...subscribeBody(device), endpoint });
      expect(response.status, endpoint).toBe(422);
      expect(await response.json()).toEqual({
        message: NOT_A_PUSH_SERVICE,
        errors: { endpoint: [NOT_A_PUSH_SERVICE] },
      });
    }
    // The default port written out is the same URL.
    expect(
      (await post({ ...subscribeBody(device), endpoint: `https://${PUSH_HOST}:443/send/${newKey()}` })).status,
    ).toBe(201);
    await env.DB.prepare("DELETE FROM push_subscriptions WHERE user_id = ?").bind(member.user.userId).run();
    // 0x04 then 64 zero bytes: the right length and prefix, but (0, 0) is not on the curve.
    const offCurve = toBase64Url(Uint8Array.from([4, ...new Uint8Array(64)]));
    const badKey = await post({ ...subscribeBody(device), keys: { p256dh: offCurve, auth: device.auth } });
    expect(badKey.status).toBe(422);
    expect(((await badKey.json()) as { errors: unknown }).errors).toEqual({ "keys.p256dh": ["Invalid value"] });
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = ?")
        .bind(member.user.userId)
        .first("n"),
    ).toBe(0);

    for (let i = 0; i < 20; i++) await subscribed(member);
    const tooMany = await post(subscribeBody(await newDevice()));
    expect(tooMany.status).toBe(409);
    expect(await tooMany.json()).toEqual({
      message: "You can receive push notifications on at most 20 devices. Remove one first.",
      errors: {},
    });
    const { devices } = (await (await api("/push", { token: member.token })).json()) as {
      devices: { endpoint: string }[];
    };
    expect(devices).toHaveLength(20);
    // A device already subscribed may still renew its keys.
    const renewed = await newDevice();
    expect(
      (await post({ endpoint: devices[0]!.endpoint, keys: { p256dh: renewed.publicKey, auth: renewed.auth } })).status,
    ).toBe(201);
  });

  it("without VAPID keys push is off: the settings say so, and no device can subscribe", async () => {
    const member = await createUser();
    const off = config({ ...env, VAPID_PUBLIC_KEY: undefined, VAPID_PRIVATE_KEY: undefined, VAPID_SUBJECT: undefined });
    const settings = await getPushSettings({ db: env.DB, config: off }, member.user.userId);
    expect([settings.enabled, settings.publicKey]).toEqual([false, null]);
    const device = await newDevice();
    const ctx = { db: env.DB, config: off, userAgent: "", language: "en", t: translatorFor("en") };
    await expect(
      subscribeDevice(ctx, member.user.userId, {
        endpoint: device.endpoint,
        keys: { p256dh: device.publicKey, auth: device.auth },
      }),
    ).rejects.toMatchObject({
      status: 409,
      message: "Push notifications are not available on this server.",
    });
  });

  it("in production, the browsers' push services by default, only over https on 443, never an IP or a private name", async () => {
    const production = { ...env, APP_ENV: "production", RESEND_API_KEY: "re_test", PUSH_SERVICE_HOSTS: undefined };
    const member = await createUser();
    const device = await newDevice();
    const ctx = { db: env.DB, config: config(production), userAgent: "", language: "en", t: translatorFor("en") };
    const subscribe = (endpoint: string) =>
      subscribeDevice(ctx, member.user.userId, { endpoint, keys: { p256dh: device.publicKey, auth: device.auth } });
    for (const endpoint of [
      "https://fcm.googleapis.com/fcm/send/abc",
      "https://updates.push.services.mozilla.com/wpush/v2/abc",
      "https://web.push.apple.com/abc",
      "https://wns2-by3p.notify.windows.com/w/?token=abc",
    ]) {
      expect((await subscribe(endpoint)).endpoint).toBe(endpoint);
    }
    for (const endpoint of [
      "https://fcm.googleapis.com:8443/fcm/send/abc",
      "http://fcm.googleapis.com/fcm/send/abc",
      "https://fcm.googleapis.com.evil.example/x",
      "https://push.apple.com/x",
      "https://evilpush.apple.com/x",
      "https://user@web.push.apple.com/x",
      "https://127.0.0.1/x",
      "https://localhost/x",
      "https://push.example.test/x",
    ]) {
      await expect(subscribe(endpoint), endpoint).rejects.toMatchObject({
        status: 422,
        fieldErrors: { endpoint: [NOT_A_PUSH_SERVICE] },
      });
    }
    // Even listed, an IP literal or a private name is not a push service: the configuration is refused.
    for (const hosts of ["127.0.0.1", "localhost", "*.internal", "push.corp", "[::1]", "0x7f.1", "*", "metadata"]) {
      expect(() => config({ ...production, PUSH_SERVICE_HOSTS: hosts }), hosts).toThrow(/PUSH_SERVICE_HOSTS/);
    }
    for (const hosts of ["", " , ", "https://fcm.googleapis.com", "fcm.googleapis.com:443", "*.", "a b.example"]) {
      expect(() => config({ ...production, PUSH_SERVICE_HOSTS: hosts }), hosts).toThrow(/PUSH_SERVICE_HOSTS/);
    }
    // The list is the operator's: a host of their own replaces the default one.
    const own = {
      ...ctx,
      config: config({ ...production, PUSH_SERVICE_HOSTS: "push.example.com, *.Push.Example.NET" }),
    };
    expect(
      (
        await subscribeDevice(own, member.user.userId, {
          endpoint: "https://a.b.push.example.net/x",
          keys: { p256dh: device.publicKey, auth: device.auth },
        })
      ).endpoint,
    ).toBe("https://a.b.push.example.net/x");
    await expect(
      subscribeDevice(own, member.user.userId, {
        endpoint: "https://fcm.googleapis.com/fcm/send/x",
        keys: { p256dh: device.publicKey, auth: device.auth },
      }),
    ).rejects.toMatchObject({ status: 422 });
  });

  it("the test tier reaches its fake push service on this machine only when its configuration lists that host", async () => {
    const member = await createUser();
    const device = await newDevice();
    const ctx = {
      db: env.DB,
      config: config({ ...env, PUSH_SERVICE_HOSTS: "127.0.0.1" }),
      userAgent: "",
      language: "en",
      t: translatorFor("en"),
    };
    const subscribe = (endpoint: string) =>
      subscribeDevice(ctx, member.user.userId, { endpoint, keys: { p256dh: device.publicKey, auth: device.auth } });
    expect((await subscribe("http://127.0.0.1:9/push/a")).endpoint).toBe("http://127.0.0.1:9/push/a");
    for (const endpoint of [
      "http://localhost:9/push/a",
      "http://[::1]:9/push/a",
      "http://user@127.0.0.1:9/push/a",
      "ftp://127.0.0.1/push/a",
    ]) {
      await expect(subscribe(endpoint), endpoint).rejects.toMatchObject({ status: 422 });
    }
  });

  it("refuses a configuration with only some VAPID variables, or a subject that is not mailto: or https:", () => {
    expect(() => config({ ...env, VAPID_SUBJECT: undefined })).toThrow(/set together or not at all/);
    expect(() => config({ ...env, VAPID_SUBJECT: "http://example.com" })).toThrow(/VAPID_SUBJECT/);
    expect(() => config({ ...env, VAPID_PRIVATE_KEY: "short" })).toThrow(/VAPID_PRIVATE_KEY/);
  });
});

describe("sending a push", () => {
  it("encrypts a message for the device (RFC 8291), signs it with a VAPID JWT for the push service (RFC 8292), with TTL and Urgency", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    const phone = await subscribed(fan);
    const conversationId = await conversationBetween(creator, fan);
    const before = Math.floor(Date.now() / 1000);
    await sendMessage(creator, conversationId, { text: "See you\n at  eight" });

    const [push, ...more] = pushesTo(phone);
    expect(more).toEqual([]);
    expect(push!.headers.get("Content-Encoding")).toBe("aes128gcm");
    expect(push!.headers.get("TTL")).toBe("86400");
    expect(push!.headers.get("Urgency")).toBe("high");
    expect(await payloadOf(push!, phone)).toEqual({
      title: `${creator.input.name} sent you a message.`,
      body: "See you at eight",
      url: `/messages/${conversationId}`,
      tag: `conversation-${conversationId}`,
      badge: 1,
    });

    // Authorization: vapid t=<JWT>, k=<the VAPID public key> (RFC 8292 §3).
    const match = /^vapid t=([\w-]+)\.([\w-]+)\.([\w-]+), k=([\w-]+)$/.exec(push!.headers.get("Authorization") ?? "");
    expect(match).not.toBeNull();
    const [, header, claims, signature, k] = match!;
    expect(k).toBe(env.VAPID_PUBLIC_KEY);
    const decode = (part: string) =>
      JSON.parse(new TextDecoder().decode(fromBase64Url(part))) as Record<string, unknown>;
    expect(decode(header!)).toEqual({ typ: "JWT", alg: "ES256" });
    const jwt = decode(claims!) as { aud: string; exp: number; sub: string };
    expect(jwt.aud).toBe(`https://${PUSH_HOST}`);
    expect(jwt.sub).toBe("mailto:push-tests@example.com");
    expect(jwt.exp).toBeGreaterThan(before);
    expect(jwt.exp).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 24 * 3600);
    const vapidKey = await crypto.subtle.importKey(
      "raw",
      fromBase64Url(env.VAPID_PUBLIC_KEY!),
      { name: "ECDSA", namedCurve: "P-256" },
      false,
      ["verify"],
    );
    const signed = new TextEncoder().encode(`${header}.${claims}`);
    expect(
      await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, vapidKey, fromBase64Url(signature!), signed),
    ).toBe(true);
    expect(
      await crypto.subtle.verify(
        { name: "ECDSA", hash: "SHA-256" },
        vapidKey,
        fromBase64Url(signature!),
        new TextEncoder().encode(`${header}.${claims}x`),
      ),
    ).toBe(false);

    expect((await deviceRow(phone.id))?.last_sent_at).not.toBeNull();
    // The sender's own devices hear nothing of their own message.
    const creatorPhone = await subscribed(creator);
    await sendMessage(creator, conversationId, { text: "again" });
    expect(pushesTo(creatorPhone)).toEqual([]);
    expect(pushesTo(phone)).toHaveLength(2);
  });

  it("writes the push in the language the device used when it subscribed", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    const device = await newDevice();
    const response = await postJson("/push/subscriptions?lng=de", subscribeBody(device), { token: fan.token });
    expect(response.status).toBe(201);
    expect(((await response.json()) as { language: string }).language).toBe("de");
    await sendMessage(creator, await conversationBetween(creator, fan), { text: "Hallo" });
    const payload = await payloadOf(pushesTo(device)[0]!, device);
    expect(payload.title).toBe(translatorFor("de")("{{name}} sent you a message.", { name: creator.input.name }));
    expect(payload.title).not.toBe(`${creator.input.name} sent you a message.`);
  });

  it("POST /push/test reaches each of the caller's devices; with none it is a 409", async () => {
    const member = await createUser();
    const none = await postJson("/push/test", {}, { token: member.token });
    expect(none.status).toBe(409);
    expect(await none.json()).toEqual({ message: "Turn on push notifications on this device first.", errors: {} });
    const [phone, laptop] = [await subscribed(member), await subscribed(member)];
    const sent = await postJson("/push/test", {}, { token: member.token });
    expect(sent.status).toBe(202);
    expect(await sent.json()).toEqual({ message: "Test notification sent.", devices: 2 });
    for (const device of [phone, laptop]) {
      expect(await payloadOf(pushesTo(device)[0]!, device)).toEqual({
        title: "Test notification",
        body: "Push notifications reach this device.",
        url: "/settings/notifications",
        tag: "test",
        badge: 0,
      });
    }
  });

  it("a kind switched off in the preferences is not pushed; the others still are", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    const phone = await subscribed(fan);
    const preferences = {
      messages: false,
      posts: true,
      earnings: true,
      subscriptions: true,
      interactions: true,
      live: true,
    };
    const put = await api("/push/preferences", { method: "PUT", body: JSON.stringify(preferences), token: fan.token });
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual(preferences);

    await sendMessage(creator, await conversationBetween(creator, fan), { text: "muted" });
    expect(pushesTo(phone)).toEqual([]);
    const post = await postJson(
      "/posts",
      { text: "New here", audience: "everyone", priceCents: 0, mediaIds: [] },
      { token: creator.token },
    );
    expect(post.status).toBe(201);
    const postId = ((await post.json()) as { id: number }).id;
    const [push] = pushesTo(phone);
    expect(await payloadOf(push!, phone)).toMatchObject({
      title: `${creator.input.name} published a new post.`,
      body: "",
      url: `/post/${postId}`,
    });
    expect(push!.headers.get("Urgency")).toBe("low");
  });
});

/**
 * What the push adapter queues for `events` when it may not use D1 at all (a database that throws on any use):
 * it must take the jobs the events carry.
 */
async function queuedWithoutD1(events: DomainEvent[]): Promise<PushJob[]> {
  const untouchable = new Proxy(env.DB, {
    get() {
      throw new Error("the push adapter read D1");
    },
  });
  const queued: PushJob[] = [];
  const queue = {
    sendBatch: async (messages: { body: PushJob }[]) => void queued.push(...messages.map((message) => message.body)),
  };
  for (const event of events) await deliverToPush({ ...env, DB: untouchable, PUSH: queue as unknown as Queue }, event);
  return queued;
}

/** A creator whose phone takes pushes, and a funded fan who follows them, in a conversation of the two. */
async function fanWritingToCreatorsPhone() {
  const creator = await createVerifiedCreator();
  const fan = await createFan();
  await follow(fan.user.userId, creator.user.userId);
  await fundWallet(fan.user.userId, 1000);
  const phone = await subscribed(creator);
  return { creator, fan, phone, conversationId: await conversationBetween(fan, creator) };
}

describe("a tip's push", () => {
  it("is read in the batch that records the tip: the push adapter asks D1 nothing, and the creator's device gets it", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await fundWallet(fan.user.userId, 1000);
    const phone = await subscribed(creator);
    const events: DomainEvent[] = [];
    const fanRow = (await findUserById(env.DB, fan.user.userId))!;
    await sendTip(
      { db: env.DB, publish: (event) => void events.push(event), config: config(env) },
      fanRow,
      { username: creator.user.username },
      { amountCents: 300, idempotencyKey: newKey() },
    );
    const notificationId = await env.DB.prepare(
      "SELECT MAX(id) AS id FROM notifications WHERE user_id = ? AND kind = 'tip'",
    )
      .bind(creator.user.userId)
      .first<number>("id");
    const created = events.find((event) => event.type === "NotificationCreated");
    expect(created).toEqual({
      type: "NotificationCreated",
      userId: creator.user.userId,
      kind: "tip",
      pushJobs: [{ subscriptionId: phone.id, topic: { type: "notification", notificationId } }],
    });

    const queued = await queuedWithoutD1([created!]);
    expect(queued).toEqual([{ subscriptionId: phone.id, topic: { type: "notification", notificationId } }]);
    // And the consumer sends it to the creator's phone.
    const message = {
      id: newKey(),
      timestamp: new Date(),
      body: queued[0],
      attempts: 1,
      ack: () => {},
      retry: () => {},
    } as Message<unknown>;
    await consumePush(
      { queue: "fanclub-push", messages: [message], ackAll: () => {}, retryAll: () => {} } as MessageBatch<unknown>,
      env,
    );
    expect(pushesTo(phone)).toHaveLength(1);
    expect(await payloadOf(pushesTo(phone)[0]!, phone)).toMatchObject({
      tag: `notification-${notificationId}`,
      body: "",
    });
  });

  it("a message's push likewise: the recipient's devices come with the stored message, for free and paid messages", async () => {
    const { creator, fan, phone, conversationId } = await fanWritingToCreatorsPhone();
    const fanRow = (await findUserById(env.DB, fan.user.userId))!;
    const events: DomainEvent[] = [];
    const ctx = { db: env.DB, publish: (event: DomainEvent) => void events.push(event), config: config(env) };
    const send = (text: string) =>
      sendMessageAs(ctx, fanRow, conversationId, {
        clientId: newKey(),
        text,
        mediaIds: [],
        priceCents: 0,
        maxPaidCents: 150,
      });
    const free = await send("hello");
    await env.DB.prepare("UPDATE users SET message_price_cents = 150 WHERE id = ?").bind(creator.user.userId).run();
    const paid = await send("paid hello");
    const sent = events.filter((event) => event.type === "MessageSent");
    expect(sent.map((event) => event.pushJobs)).toEqual(
      [free.message.id, paid.message.id].map((messageId) => [
        { subscriptionId: phone.id, topic: { type: "message", messageId } },
      ]),
    );

    expect(await queuedWithoutD1(sent)).toEqual(sent.flatMap((event) => event.pushJobs));
  });

  it("a post bought and a paid subscription push their own notifications, their devices read in the payment's batch", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await fundWallet(fan.user.userId, 5000);
    const phone = await subscribed(creator);
    const plans = await api("/me/plans", {
      method: "PUT",
      body: JSON.stringify({ plans: [{ period: "month", priceCents: 999 }] }),
      token: creator.token,
    });
    expect(plans.status).toBe(200);
    const post = await createPost(creator.user.userId, { priceCents: 450 });
    await follow(fan.user.userId, creator.user.userId);

    const bought = await postJson(
      `/posts/${post.id}/purchase`,
      { priceCents: 450, idempotencyKey: newKey() },
      { token: fan.token },
    );
    expect(bought.status, await bought.clone().text()).toBe(200);
    const subscribedNow = await postJson(
      `/users/${creator.user.username}/subscribe`,
      { period: "month", priceCents: 999, idempotencyKey: newKey() },
      { token: fan.token },
    );
    expect(subscribedNow.status, await subscribedNow.clone().text()).toBe(200);

    const idOf = (kind: string) =>
      env.DB.prepare("SELECT MAX(id) AS id FROM notifications WHERE user_id = ? AND kind = ?")
        .bind(creator.user.userId, kind)
        .first<number>("id");
    const tags = await Promise.all(pushesTo(phone).map(async (push) => (await payloadOf(push, phone)).tag));
    expect(tags).toEqual([`notification-${await idOf("purchase")}`, `notification-${await idOf("subscription")}`]);
  });

  it("a tip in a conversation is one push, the tip's, and it opens the thread", async () => {
    const { creator, fan, phone, conversationId } = await fanWritingToCreatorsPhone();
    const tipped = await postJson(
      `/conversations/${conversationId}/tips`,
      { amountCents: 500, note: "For the sunrise set", idempotencyKey: newKey() },
      { token: fan.token },
    );
    expect(tipped.status, await tipped.clone().text()).toBe(200);
    const notificationId = await env.DB.prepare(
      "SELECT MAX(id) AS id FROM notifications WHERE user_id = ? AND kind = 'tip'",
    )
      .bind(creator.user.userId)
      .first<number>("id");
    // Not also "sent you a message" for the message the tip is: the same tip twice on the phone.
    expect(pushesTo(phone)).toHaveLength(1);
    expect(await payloadOf(pushesTo(phone)[0]!, phone)).toMatchObject({
      title: `${fan.input.name} sent you a tip.`,
      body: "",
      url: `/messages/${conversationId}`,
      tag: `notification-${notificationId}`,
    });
    // A message after it is pushed as any other.
    await sendMessage(fan, conversationId, { text: "see you live" });
    expect(pushesTo(phone)).toHaveLength(2);
    expect(await payloadOf(pushesTo(phone)[1]!, phone)).toMatchObject({
      title: `${fan.input.name} sent you a message.`,
      body: "see you live",
    });
  });

  it("a like is pushed once, its devices read in the like's batch; liking again pushes nothing", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    const phone = await subscribed(creator);
    const post = await createPost(creator.user.userId);
    for (let i = 0; i < 2; i++)
      expect((await postJson(`/posts/${post.id}/like`, {}, { token: fan.token })).status).toBe(200);
    const notificationId = await env.DB.prepare(
      "SELECT MAX(id) AS id FROM notifications WHERE user_id = ? AND kind = 'like'",
    )
      .bind(creator.user.userId)
      .first<number>("id");
    expect(pushesTo(phone)).toHaveLength(1);
    expect(await payloadOf(pushesTo(phone)[0]!, phone)).toMatchObject({
      title: `${fan.input.name} liked your post.`,
      tag: `notification-${notificationId}`,
    });

    const events: DomainEvent[] = [];
    const other = await createUser();
    await likePost(
      { db: env.DB, publish: (event) => void events.push(event), config: config(env) },
      other.user.userId,
      post.id,
    );
    const created = events.find((event) => event.type === "NotificationCreated");
    const newest = await env.DB.prepare("SELECT MAX(id) AS id FROM notifications WHERE user_id = ? AND kind = 'like'")
      .bind(creator.user.userId)
      .first<number>("id");
    expect(newest).not.toBe(notificationId);
    expect(await queuedWithoutD1([created!])).toEqual([
      { subscriptionId: phone.id, topic: { type: "notification", notificationId: newest } },
    ]);
  });

  it("a creator without a device: the event says there is nothing to push; a replay publishes nothing", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await fundWallet(fan.user.userId, 1000);
    const fanRow = (await findUserById(env.DB, fan.user.userId))!;
    const events: DomainEvent[] = [];
    const ctx = { db: env.DB, publish: (event: DomainEvent) => void events.push(event), config: config(env) };
    const input = { amountCents: 200, idempotencyKey: newKey() };
    await sendTip(ctx, fanRow, { username: creator.user.username }, input);
    expect(events.filter((event) => event.type === "NotificationCreated")).toEqual([
      { type: "NotificationCreated", userId: creator.user.userId, kind: "tip", pushJobs: [] },
    ]);
    const replay = await sendTip(ctx, fanRow, { username: creator.user.username }, input);
    expect(replay.replayed).toBe(true);
    expect(events.filter((event) => event.type === "NotificationCreated")).toHaveLength(1);
  });
});

describe("what a payload may say", () => {
  it("a message paid for shows no text, nor does a pay-per-view message, and a fan's payload names no amount", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await follow(fan.user.userId, creator.user.userId);
    await env.DB.prepare("UPDATE users SET message_price_cents = 275 WHERE id = ?").bind(creator.user.userId).run();
    await fundWallet(fan.user.userId, 1000);
    const [creatorPhone, fanPhone] = [await subscribed(creator), await subscribed(fan)];
    const conversationId = await conversationBetween(fan, creator);

    await sendMessage(fan, conversationId, { text: "a paid secret", maxPaidCents: 275 });
    const toCreator = await payloadOf(pushesTo(creatorPhone)[0]!, creatorPhone);
    expect(toCreator).toMatchObject({
      title: `${fan.input.name} sent you a message.`,
      body: "Open the conversation to read it.",
    });
    expect(JSON.stringify(toCreator)).not.toContain("secret");

    const image = await chatImage(creator.user.userId);
    await sendMessage(creator, conversationId, { text: "locked words", mediaIds: [image], priceCents: 1234 });
    const toFan = await payloadOf(pushesTo(fanPhone)[0]!, fanPhone);
    expect(toFan).toMatchObject({
      title: `${creator.input.name} sent you a message.`,
      body: "Open the conversation to read it.",
    });
    expect(JSON.stringify(toFan)).not.toMatch(/locked|12\.34|1234|\$/);
  });

  it("a new post is announced to followers without its text, even to those it is locked for", async () => {
    const creator = await makeCreator();
    const follower = await createUser();
    await follow(follower.user.userId, creator.user.userId);
    const phone = await subscribed(follower);
    const post = await postJson(
      "/posts",
      { text: "Only for subscribers: the secret recipe", audience: "subscribers", priceCents: 0, mediaIds: [] },
      { token: creator.token },
    );
    expect(post.status).toBe(201);
    const payload = await payloadOf(pushesTo(phone)[0]!, phone);
    expect(payload.title).toBe(`${creator.input.name} published a new post.`);
    expect(JSON.stringify(payload)).not.toContain("recipe");
  });

  it("notifications about money name no amount", async () => {
    const fan = await createUser();
    const insert = (kind: string, params: Record<string, unknown>) =>
      env.DB.prepare("INSERT INTO notifications (user_id, kind, params, created_at) VALUES (?, ?, ?, ?) RETURNING id")
        .bind(fan.user.userId, kind, JSON.stringify(params), new Date().toISOString())
        .first<{ id: number }>();
    const topUp = await insert("top_up", { amountCents: 4321 });
    const payout = await insert("payout", { status: "paid", amountCents: 4321 });
    for (const [row, title, url] of [
      [topUp, "Money was added to your wallet.", "/wallet"],
      [payout, "Your withdrawal has been paid.", "/dashboard/payouts"],
    ] as const) {
      const payload = await pushPayloadFor(env.DB, fan.user.userId, "en", {
        type: "notification",
        notificationId: row!.id,
      });
      expect(payload).toEqual({ title, body: "", url, tag: `notification-${row!.id}`, badge: 2 });
    }
    // Another user's notification is not theirs to be pushed.
    const other = await createUser();
    expect(
      await pushPayloadFor(env.DB, other.user.userId, "en", { type: "notification", notificationId: topUp!.id }),
    ).toBeNull();
  });
});

describe("the push service's answers", () => {
  const batchOf = (job: PushJob, attempts = 1) => {
    const outcome: { acked: boolean; retried: { delaySeconds?: number } | null } = { acked: false, retried: null };
    const message: Message<unknown> = {
      id: newKey(),
      timestamp: new Date(),
      body: job,
      attempts,
      ack: () => void (outcome.acked = true),
      retry: (options) => void (outcome.retried = options ?? {}),
    };
    return {
      batch: {
        queue: "fanclub-push",
        messages: [message],
        ackAll: () => {},
        retryAll: () => {},
      } as MessageBatch<unknown>,
      outcome,
    };
  };

  it("410 Gone and 404 delete the subscription", async () => {
    for (const status of [410, 404]) {
      const member = await createUser();
      const device = await subscribed(member);
      answer = () => new Response(null, { status });
      expect((await postJson("/push/test", {}, { token: member.token })).status).toBe(202);
      expect(pushesTo(device)).toHaveLength(1);
      expect(await deviceRow(device.id), `after ${status}`).toBeNull();
    }
  });

  it("429 is retried after Retry-After, 5xx and no answer with a backoff that doubles; the subscription stays", async () => {
    const member = await createUser();
    const device = await subscribed(member);
    const job: PushJob = { subscriptionId: device.id, topic: { type: "test" } };

    answer = () => new Response(null, { status: 429, headers: { "Retry-After": "77" } });
    const throttled = batchOf(job);
    await consumePush(throttled.batch, env);
    expect(throttled.outcome).toEqual({ acked: false, retried: { delaySeconds: 77 } });

    answer = () => new Response(null, { status: 503 });
    const failing = batchOf(job, 3);
    await consumePush(failing.batch, env);
    expect(failing.outcome).toEqual({ acked: false, retried: { delaySeconds: 120 } });

    answer = () => {
      throw new TypeError("Network connection lost.");
    };
    const unreachable = batchOf(job, 1);
    await consumePush(unreachable.batch, env);
    expect(unreachable.outcome).toEqual({ acked: false, retried: { delaySeconds: 30 } });

    expect(pushesTo(device)).toHaveLength(3);
    expect(await deviceRow(device.id)).toMatchObject({ id: device.id, last_sent_at: null });

    answer = () => new Response(null, { status: 201 });
    const delivered = batchOf(job, 4);
    await consumePush(delivered.batch, env);
    expect(delivered.outcome).toEqual({ acked: true, retried: null });
    expect((await deviceRow(device.id))?.last_sent_at).not.toBeNull();
  });

  it("a batch's pushes go out side by side in a few round trips: its devices read in one statement, those reached marked in one", async () => {
    const devices = await Promise.all([0, 1, 2, 3].map(async () => subscribed(await createUser())));
    const failing = devices[3]!;
    // The push service holds every answer until the four pushes are in flight at once (or half a second passed).
    let inFlight = 0;
    let most = 0;
    let release = () => {};
    const allInFlight = new Promise<void>((resolve) => (release = resolve));
    answer = async (endpoint) => {
      most = Math.max(most, ++inFlight);
      if (inFlight === 4) release();
      await Promise.race([allInFlight, new Promise((resolve) => setTimeout(resolve, 500))]);
      inFlight--;
      return new Response(null, { status: endpoint === failing.endpoint ? 503 : 201 });
    };
    const jobs = [
      ...devices.map((device) => ({ subscriptionId: device.id, topic: { type: "test" } })),
      { subscriptionId: 987654, topic: { type: "test" } },
    ] as PushJob[];
    const messages = jobs.map((job) => batchOf(job));
    // What reaches D1 about the devices themselves: their reading and their marking.
    const statements: string[] = [];
    const DB = new Proxy(env.DB, {
      get(target, property) {
        if (property === "prepare")
          return (query: string) => {
            statements.push(query);
            return target.prepare(query);
          };
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const batch = {
      queue: "fanclub-push",
      messages: messages.map(({ batch }) => batch.messages[0]!),
      ackAll: () => {},
      retryAll: () => {},
    } as MessageBatch<unknown>;
    const { database, calls } = counted(DB);
    await consumePush(batch, { ...env, DB: database });

    expect(most).toBe(4);
    expect(messages.map(({ outcome }) => outcome)).toEqual([
      { acked: true, retried: null },
      { acked: true, retried: null },
      { acked: true, retried: null },
      { acked: false, retried: { delaySeconds: 30 } },
      { acked: true, retried: null },
    ]);
    expect(statements.filter((query) => /push_subscriptions/.test(query))).toEqual([
      expect.stringMatching(/^SELECT .* FROM push_subscriptions WHERE id IN/),
      expect.stringMatching(/^UPDATE push_subscriptions SET last_sent_at/),
    ]);
    // The devices; each payload's read (a test push's is its badge count); the marking.
    expect(calls.single + calls.batches).toBe(6);
    for (const device of devices.slice(0, 3)) expect((await deviceRow(device.id))?.last_sent_at).not.toBeNull();
    expect((await deviceRow(failing.id))?.last_sent_at).toBeNull();
  });

  it("a device stored with an endpoint that is not a push service's is never contacted: the push is dropped", async () => {
    const member = await createUser();
    const keys = await newDevice();
    const outcomes = [];
    for (const endpoint of [
      "https://127.0.0.1:1/x",
      "https://localhost/x",
      "http://push.example.test/x",
      "https://evil.example/x",
      "https://push.example.test:8443/x",
    ]) {
      const id = await env.DB.prepare(
        "INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, language, label, created_at) VALUES (?, ?, ?, ?, 'en', 'Old row', '2026-01-01T00:00:00.000Z') RETURNING id",
      )
        .bind(member.user.userId, endpoint, keys.publicKey, keys.auth)
        .first<number>("id");
      const pushed = batchOf({ subscriptionId: id!, topic: { type: "test" } });
      await consumePush(pushed.batch, env);
      outcomes.push(pushed.outcome);
    }
    expect(contacted).toEqual([]);
    expect(outcomes).toEqual(Array(5).fill({ acked: true, retried: null }));
    // Nothing sent, nothing marked; the rows stay for their owner to see and remove.
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = ? AND last_sent_at IS NULL")
        .bind(member.user.userId)
        .first("n"),
    ).toBe(5);
  });

  it("a push does not follow a redirect", async () => {
    const member = await createUser();
    const device = await subscribed(member);
    answer = () => new Response(null, { status: 307, headers: { Location: "https://127.0.0.1:1/x" } });
    const pushed = batchOf({ subscriptionId: device.id, topic: { type: "test" } });
    await consumePush(pushed.batch, env);
    expect(pushesTo(device).map((push) => push.redirect)).toEqual(["manual"]);
    expect(contacted).toEqual([device.endpoint]);
    expect(pushed.outcome).toEqual({ acked: true, retried: null });
  });

  it("a push for a device removed meanwhile, or a malformed job, is acknowledged and sends nothing", async () => {
    const gone = batchOf({ subscriptionId: 987654, topic: { type: "test" } });
    await consumePush(gone.batch, env);
    const malformed = batchOf({ subscriptionId: "x" } as unknown as PushJob);
    await consumePush(malformed.batch, env);
    expect([gone.outcome, malformed.outcome]).toEqual([
      { acked: true, retried: null },
      { acked: true, retried: null },
    ]);
    expect(received).toEqual([]);
  });
});

/** A ready chat image of `userId` (what an upload for a message leaves), as messages.test.ts seeds one. */
async function chatImage(userId: number): Promise<number> {
  const key = `posts/${newKey().replace(/-/g, "")}.png`;
  const previewKey = `previews/${newKey().replace(/-/g, "")}.png`;
  for (const k of [key, previewKey]) await env.MEDIA.put(k, PNG, { httpMetadata: { contentType: "image/png" } });
  const row = await env.DB.prepare(
    "INSERT INTO media (user_id, purpose, kind, status, object_key, preview_key, content_type, size_bytes, created_at) VALUES (?, 'post', 'image', 'ready', ?, ?, 'image/png', 8, ?) RETURNING id",
  )
    .bind(userId, key, previewKey, new Date().toISOString())
    .first<{ id: number }>();
  return row!.id;
}
