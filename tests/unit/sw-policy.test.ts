import { describe, expect, it } from "vitest";
import { isNeverCached } from "../../app/sw/policy";

describe("what the service worker never caches", () => {
  it.each(["/api/wallet", "/media/posts/a.jpg", "/ws/updates", "/dev/mailbox", "/wallet/top-up/12", "/wallet/top-up/12.data"])("%s", (path) => expect(isNeverCached(path)).toBe(true));

  it.each(["/wallet", "/wallet.data", "/home", "/apiary", "/wallet/top-ups"])("keeps %s", (path) => expect(isNeverCached(path)).toBe(false));
});
