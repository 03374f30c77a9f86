import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifyStripeSignature } from "../../worker/domain/money/providers/stripe-signature";

const SECRET = "whsec_unit";
const BODY = '{"id":"evt_1","type":"checkout.session.completed"}';
const NOW = 1_800_000_000;
const v1 = (timestamp: number | string, body = BODY, secret = SECRET) =>
  createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");

describe("Stripe-Signature", () => {
  it("accepts a signature made up to 300 seconds either side of now, and refuses one beyond", async () => {
    for (const offset of [0, -300, 300])
      expect(await verifyStripeSignature(SECRET, `t=${NOW + offset},v1=${v1(NOW + offset)}`, BODY, NOW)).toBe(true);
    for (const offset of [-301, 301])
      expect(await verifyStripeSignature(SECRET, `t=${NOW + offset},v1=${v1(NOW + offset)}`, BODY, NOW)).toBe(false);
  });

  it("accepts any one valid v1 among several, in any order, with spaces", async () => {
    expect(
      await verifyStripeSignature(
        SECRET,
        `v1=${"0".repeat(64)}, t=${NOW}, v1=${v1(NOW)}, v0=${"1".repeat(64)}`,
        BODY,
        NOW,
      ),
    ).toBe(true);
  });

  it.each([
    ["no header", undefined],
    ["empty", ""],
    ["no timestamp", `v1=${v1(NOW)}`],
    ["two timestamps", `t=${NOW},t=${NOW},v1=${v1(NOW)}`],
    ["a timestamp that is not a number", `t=abc,v1=${v1(NOW)}`],
    ["no v1", `t=${NOW}`],
    ["upper-case hex", `t=${NOW},v1=${v1(NOW).toUpperCase()}`],
    ["a short signature", `t=${NOW},v1=${v1(NOW).slice(0, 62)}`],
    ["another secret", `t=${NOW},v1=${v1(NOW, BODY, "whsec_other")}`],
    ["another body", `t=${NOW},v1=${v1(NOW, BODY.replace("evt_1", "evt_2"))}`],
    ["the signature of another timestamp", `t=${NOW},v1=${v1(NOW - 1)}`],
  ])("refuses %s", async (_, header) => {
    expect(await verifyStripeSignature(SECRET, header, BODY, NOW)).toBe(false);
  });

  it("reads the timestamp as up to 12 digits, leading zeros included", async () => {
    expect(await verifyStripeSignature(SECRET, `t=00${NOW},v1=${v1(`00${NOW}`)}`, BODY, NOW)).toBe(true);
    expect(await verifyStripeSignature(SECRET, `t=000${NOW},v1=${v1(`000${NOW}`)}`, BODY, NOW)).toBe(false);
  });

  it.each([
    ["text after the timestamp", `${NOW}x`],
    ["text before the timestamp", `x${NOW}`],
    ["a negative timestamp", `-${NOW}`],
  ])("refuses %s, even signed as written", async (_, timestamp) => {
    expect(await verifyStripeSignature(SECRET, `t=${timestamp},v1=${v1(timestamp)}`, BODY, NOW)).toBe(false);
  });

  it("skips a v1 without a value, and does not take another key for the timestamp", async () => {
    expect(await verifyStripeSignature(SECRET, `t=${NOW},v1,v1=${v1(NOW)}`, BODY, NOW)).toBe(true);
    expect(await verifyStripeSignature(SECRET, `tt=${NOW - 1000},t=${NOW},v1=${v1(NOW)}`, BODY, NOW)).toBe(true);
    expect(await verifyStripeSignature(SECRET, `t,t=${NOW},v1=${v1(NOW)}`, BODY, NOW)).toBe(false);
  });

  it("takes only v1 signatures: a valid HMAC under another scheme's key is refused", async () => {
    expect(await verifyStripeSignature(SECRET, `t=${NOW},v0=${v1(NOW)}`, BODY, NOW)).toBe(false);
  });

  it("checks against the current time by default", async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await verifyStripeSignature(SECRET, `t=${now},v1=${v1(now)}`, BODY)).toBe(true);
    expect(await verifyStripeSignature(SECRET, `t=${now - 400},v1=${v1(now - 400)}`, BODY)).toBe(false);
  });
});
