import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, hotp, matchTotp, otpauthUri, totpAt } from "@worker/domain/auth/totp";
import { decryptSecret, encryptSecret } from "@worker/domain/auth/two-step-secret";

const ascii = (text: string) => new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;
/** RFC 6238's SHA-1 seed: the ASCII of "12345678901234567890". */
const RFC_SEED = ascii("12345678901234567890");

describe("TOTP (RFC 6238, SHA-1)", () => {
  // RFC 6238 appendix B, the SHA-1 column: time in seconds, the 8-digit TOTP.
  it.each([
    [59, "94287082"],
    [1111111109, "07081804"],
    [1111111111, "14050471"],
    [1234567890, "89005924"],
    [2000000000, "69279037"],
    [20000000000, "65353130"],
  ])("at %i s gives %s", async (seconds, expected) => {
    expect(await totpAt(RFC_SEED, seconds * 1000, 8)).toBe(expected);
  });

  // RFC 4226 appendix D: the HOTP values of counters 0 to 9 for the same seed, 6 digits.
  it("gives RFC 4226's HOTP values, 6 digits", async () => {
    const expected = [
      "755224",
      "287082",
      "359152",
      "969429",
      "338314",
      "254676",
      "287922",
      "162583",
      "399871",
      "520489",
    ];
    const actual = await Promise.all(expected.map((_, counter) => hotp(RFC_SEED, counter)));
    expect(actual).toEqual(expected);
  });

  it("accepts the step before and after, not two away, and never a step already used", async () => {
    const at = 1111111109_000; // step 37037036
    const step = Math.floor(at / 30_000);
    const codeOf = (offset: number) => hotp(RFC_SEED, step + offset);
    expect(await matchTotp(RFC_SEED, await codeOf(0), at, 0)).toBe(step);
    expect(await matchTotp(RFC_SEED, await codeOf(-1), at, 0)).toBe(step - 1);
    expect(await matchTotp(RFC_SEED, await codeOf(1), at, 0)).toBe(step + 1);
    expect(await matchTotp(RFC_SEED, await codeOf(2), at, 0)).toBeNull();
    expect(await matchTotp(RFC_SEED, await codeOf(-2), at, 0)).toBeNull();
    expect(await matchTotp(RFC_SEED, await codeOf(0), at, step)).toBeNull();
    expect(await matchTotp(RFC_SEED, await codeOf(1), at, step)).toBe(step + 1);
    expect(await matchTotp(RFC_SEED, "12345", at, 0)).toBeNull();
  });
});

describe("base32 (RFC 4648)", () => {
  // RFC 4648 §10's vectors, without their padding.
  it.each([
    ["", ""],
    ["f", "MY"],
    ["fo", "MZXQ"],
    ["foo", "MZXW6"],
    ["foob", "MZXW6YQ"],
    ["fooba", "MZXW6YTB"],
    ["foobar", "MZXW6YTBOI"],
  ])("%s is %s and back", (text, encoded) => {
    expect(base32Encode(ascii(text))).toBe(encoded);
    expect(new TextDecoder().decode(base32Decode(encoded.toLowerCase())!)).toBe(text);
  });

  it("refuses letters outside the alphabet", () => {
    expect(base32Decode("MZ1W")).toBeNull();
  });
});

describe("otpauth URI", () => {
  it("names the issuer and account, and carries the secret and the parameters", () => {
    const uri = new URL(otpauthUri("Fanclub", "ann@example.test", "JBSWY3DPEHPK3PXP"));
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(decodeURIComponent(uri.pathname)).toBe("/Fanclub:ann@example.test");
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      secret: "JBSWY3DPEHPK3PXP",
      issuer: "Fanclub",
      algorithm: "SHA1",
      digits: "6",
      period: "30",
    });
  });
});

describe("the stored secret", () => {
  const appSecret = "a".repeat(32);
  it("is not the secret, opens with the same APP_SECRET and not with another", async () => {
    const stored = await encryptSecret(appSecret, RFC_SEED);
    expect(stored).not.toContain(base32Encode(RFC_SEED));
    expect(await decryptSecret(appSecret, stored)).toEqual(RFC_SEED);
    expect(await decryptSecret("b".repeat(32), stored)).toBeNull();
    expect(await decryptSecret(appSecret, "not stored")).toBeNull();
  });
});
