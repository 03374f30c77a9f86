import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decryptPush, toBase64Url } from "../support/push-decrypt";
import {
  apiAs,
  baseURL,
  browserForThisFile,
  createAccount,
  hydrated,
  signedInPage,
  sql,
  sqlRows,
  storedToken,
  unique,
  within,
  loginPageLoad,
} from "./support";

/**
 * Web push end to end: Settings → Notifications turns push on for the device, a message sent to the person is
 * pushed by the Worker (RFC 8291/8292) to a push service on this machine that decrypts it with the device's
 * keys, and the service worker shows it and opens the conversation on a click. Only PushManager.subscribe is
 * replaced (no real push service is reachable here): it answers a subscription whose endpoint is that local
 * service, with keys this test holds.
 */
const browser = browserForThisFile();

type Account = Awaited<ReturnType<typeof createAccount>>;
let creator: Account;
let fan: Account;
let conversationId: number;
const tag = `pu${unique().slice(-6)}`;

interface Received {
  headers: IncomingHttpHeaders;
  body: Uint8Array<ArrayBuffer>;
}
const received: Received[] = [];
let pushService: Server;
let endpoint: string;
let device: { publicKey: string; privateKey: string; auth: string };

beforeAll(async () => {
  pushService = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: new Uint8Array(Buffer.concat(chunks)) });
      response.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => pushService.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(pushService.address() as AddressInfo).port}/push/${tag}`;
  // The device's keys, as a browser makes them for a subscription.
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ])) as CryptoKeyPair;
  device = {
    publicKey: toBase64Url(new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey))),
    privateKey: (await crypto.subtle.exportKey("jwk", pair.privateKey)).d!,
    auth: toBase64Url(crypto.getRandomValues(new Uint8Array(16))),
  };

  creator = await createAccount({ username: `${tag}_sam`, name: "Sam Push" });
  fan = await createAccount({ username: `${tag}_ivy`, name: "Ivy Push" });
  await sql(`UPDATE users SET role = 'creator' WHERE username = '${creator.username}';`);
  await apiAs(fan, "POST", `/users/${creator.username}/follow`);
  conversationId = (await apiAs(creator, "POST", "/conversations", { username: fan.username })).id as number;
});

afterAll(() =>
  within(
    new Promise<void>((resolve) => pushService.close(() => resolve())),
    "the local push service to close its connections",
  ),
);

describe("web push", () => {
  it("is turned on in Settings, carries a new message to the device encrypted, and its notification opens the conversation", async () => {
    const { context, page } = await signedInPage(browser(), fan, undefined, { serviceWorkers: "allow" });
    await context.grantPermissions(["notifications"]);
    await context.addInitScript(
      ({ endpoint, p256dh, auth }) => {
        // The subscription outlives a page load, as a browser's does (sign-out, on another page, ends it).
        const KEY = "test-push-subscribed";
        const subscription = {
          endpoint,
          expirationTime: null,
          options: { applicationServerKey: null, userVisibleOnly: true },
          getKey: () => null,
          toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
          unsubscribe: async () => {
            sessionStorage.removeItem(KEY);
            return true;
          },
        } as unknown as PushSubscription;
        PushManager.prototype.subscribe = async function subscribe() {
          sessionStorage.setItem(KEY, "1");
          return subscription;
        };
        PushManager.prototype.getSubscription = async function getSubscription() {
          return sessionStorage.getItem(KEY) ? subscription : null;
        };
      },
      { endpoint, p256dh: device.publicKey, auth: device.auth },
    );
    await page.goto("/settings/notifications");
    await hydrated(page);
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === "activated", null, {
      timeout: 20_000,
    });
    await page.reload();
    await hydrated(page);
    const settings = page.getByTestId("push-settings");
    await settings.getByRole("button", { name: "Turn on push notifications on this device" }).click();
    await settings.getByRole("status").getByText("Push notifications are on for this device.").waitFor();
    await settings.getByTestId("push-device").getByText("(this device)").waitFor();

    // The creator writes: the Worker pushes it through its queue to the device's push service.
    await apiAs(creator, "POST", `/conversations/${conversationId}/messages`, {
      clientId: `${tag}-push-0001`,
      text: "See you at the shoot",
    });
    await expect
      .poll(() => received.length, { timeout: 20_000, message: "the pushes the local push service received" })
      .toBe(1);
    const [push] = received;
    expect(push!.headers["content-encoding"]).toBe("aes128gcm");
    expect(Number(push!.headers.ttl)).toBeGreaterThan(0);
    expect(push!.headers.urgency).toMatch(/^(very-low|low|normal|high)$/);
    expect(push!.headers.authorization).toMatch(/^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]+$/);
    const payload = JSON.parse(new TextDecoder().decode(await decryptPush(push!.body, device))) as {
      title: string;
      body: string;
      url: string;
      badge: number;
    };
    // The badge is the fan's unread count: the one message.
    expect(payload).toMatchObject({
      title: "Sam Push sent you a message.",
      url: `/messages/${conversationId}`,
      badge: 1,
    });

    // The app badge the worker sets (Badging API) is recorded where Chromium shows none (headless). The
    // notification is read once showNotification() has resolved: a getNotifications() that starts while Chromium
    // has stored a notification but not yet displayed it (its icon still loading) deletes it from its database
    // (platform_notification_context_impl.cc, DoReadAllNotificationDataForServiceWorkerRegistration), so polling
    // during the display lost it for good on a busy machine. The app itself never reads its notifications.
    const [worker] = context.serviceWorkers();
    await worker!.evaluate(() => {
      const scope = self as unknown as {
        badges: number[];
        shown: Promise<void>;
        navigator: { setAppBadge?: (count: number) => Promise<void> };
        registration: ServiceWorkerRegistration;
      };
      scope.badges = [];
      scope.navigator.setAppBadge = async (count: number) => void scope.badges.push(count);
      const show = scope.registration.showNotification.bind(scope.registration);
      scope.shown = new Promise((resolve) => {
        scope.registration.showNotification = (...args) => show(...args).then(resolve);
      });
    });

    // The push reaches the service worker (as the push service would deliver it): it shows the notification.
    const cdp = await context.newCDPSession(page);
    const registration = new Promise<string>((resolve) =>
      cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
        const mine = registrations.find(
          (candidate: { scopeURL: string; isDeleted: boolean }) =>
            candidate.scopeURL.startsWith(baseURL()) && !candidate.isDeleted,
        );
        if (mine) resolve(mine.registrationId);
      }),
    );
    await cdp.send("ServiceWorker.enable");
    await cdp.send("ServiceWorker.deliverPushMessage", {
      origin: new URL(baseURL()).origin,
      registrationId: await within(registration, "CDP to report this origin's service worker registration"),
      data: JSON.stringify(payload),
    });
    await within(
      worker!.evaluate(() => (self as unknown as { shown: Promise<void> }).shown),
      "the service worker to show the push's notification",
    );
    expect(
      await page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((shown) => [
          shown.title,
          (shown.data as { url: string }).url,
        ]),
      ),
    ).toEqual([["Sam Push sent you a message.", `/messages/${conversationId}`]]);
    expect(await worker!.evaluate(() => (self as unknown as { badges: number[] }).badges)).toEqual([1]);

    // A click on it opens the conversation in the open window.
    await worker!.evaluate(async () => {
      const scope = self as unknown as ServiceWorkerGlobalScope;
      const [shown] = await scope.registration.getNotifications();
      scope.dispatchEvent(new NotificationEvent("notificationclick", { notification: shown! }));
    });
    await page.waitForURL(`/messages/${conversationId}`);
    await page.getByText("See you at the shoot").waitFor();

    // Signing out takes this device off the account (its pushes must not reach whoever uses the browser next).
    const loginLoaded = loginPageLoad(page);
    await page.goto("/logout");
    await loginLoaded;
    await hydrated(page);
    const devices = await sqlRows<{ n: number }>(
      `SELECT COUNT(*) AS n FROM push_subscriptions WHERE endpoint = '${endpoint}'`,
    );
    expect(devices[0]![0]!.n).toBe(0);
    expect(await page.evaluate(() => sessionStorage.getItem("test-push-subscribed"))).toBeNull();
    // The token is gone for good: a dead one would make /login ask GET /api/me and load itself again.
    expect(await storedToken(page)).toBeNull();
  });
});
