import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { stopClockAt } from "./clock";
import de from "../../app/locales/de.json";
import { api, latestMailTo, postJson } from "./factories";
import { createVerifiedCreator, newKey } from "./money-fixtures";

type Creator = Awaited<ReturnType<typeof createVerifiedCreator>>;

/** The four actions that re-check the password (spec §5), each with a way to see that it changed nothing. */
const ACTIONS: {
  name: string;
  attempt(creator: Creator, password: string, headers?: HeadersInit): Promise<Response>;
  unchanged(creator: Creator): Promise<void>;
}[] = [
  {
    name: "changing the password",
    attempt: (creator, password, headers) =>
      postJson(
        "/me/password",
        { password, newPassword: "a brand new passphrase", newPasswordConfirmation: "a brand new passphrase" },
        { token: creator.token, headers },
      ),
    unchanged: async (creator) => {
      const signIn = await postJson(
        "/login",
        { login: creator.input.email, password: creator.input.password },
        { ip: "198.51.100.200" },
      );
      expect(signIn.status).toBe(200);
    },
  },
  {
    name: "changing the email",
    attempt: (creator, password, headers) =>
      postJson("/email/change", { email: `new_${creator.input.email}`, password }, { token: creator.token, headers }),
    unchanged: async (creator) => expect(await latestMailTo(`new_${creator.input.email}`)).toBeNull(),
  },
  {
    name: "setting the payout method",
    attempt: (creator, password, headers) =>
      api("/me/payout-method", {
        method: "PUT",
        body: JSON.stringify({
          kind: "paypal",
          paypalEmail: "me@example.com",
          paypalEmailConfirmation: "me@example.com",
          password,
        }),
        token: creator.token,
        headers,
      }),
    unchanged: async (creator) =>
      expect(await (await api("/me/payout-method", { token: creator.token })).json()).toEqual({ method: null }),
  },
  {
    name: "requesting a withdrawal",
    attempt: (creator, password, headers) =>
      postJson(
        "/payouts",
        { amountCents: 5000, password, idempotencyKey: newKey() },
        { token: creator.token, headers },
      ),
    unchanged: async (creator) => {
      const { n } = (await env.DB.prepare("SELECT COUNT(*) AS n FROM payouts WHERE creator_id = ?")
        .bind(creator.user.userId)
        .first<{ n: number }>())!;
      expect(n).toBe(0);
    },
  },
];

/** The 429's sentence for the wait its Retry-After gives: what is left of the limiter's window, "1 minute" in its last. */
function tooMany(response: Response, texts: Record<string, string> = {}): string {
  const minutes = Math.max(1, Math.ceil(Number(response.headers.get("Retry-After")) / 60));
  const one = "Too many attempts. Please try again in 1 minute.";
  const many = "Too many attempts. Please try again in {{count}} minutes.";
  return minutes === 1 ? (texts[one] ?? one) : (texts[many] ?? many).replace("{{count}}", String(minutes));
}

describe("the password re-check of a signed-in user", () => {
  for (const action of ACTIONS) {
    it(`${action.name}: 5 wrong passwords, then 429 in the reader's language, even for the right password`, async () => {
      // The limit counts in fixed windows of the clock: stopped, the requests cannot straddle two.
      stopClockAt(new Date());
      const creator = await createVerifiedCreator();
      for (let attempt = 0; attempt < 5; attempt++) {
        const wrong = await action.attempt(creator, `wrong password ${attempt}`);
        expect(wrong.status).toBe(422);
        expect(await wrong.json()).toEqual({ message: "Wrong password", errors: { password: ["Wrong password"] } });
      }
      const sixth = await action.attempt(creator, "wrong password 5");
      expect(sixth.status).toBe(429);
      expect(Number(sixth.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect(((await sixth.json()) as { message: string }).message).toBe(tooMany(sixth));

      const right = await action.attempt(creator, creator.input.password, { "Accept-Language": "de" });
      expect(right.status).toBe(429);
      expect(((await right.json()) as { message: string }).message).toBe(tooMany(right, de));
      await action.unchanged(creator);
    });
  }

  it("counts wrong passwords per account across the four actions, and only for that account", async () => {
    // The limit counts in fixed windows of the clock: stopped, the requests cannot straddle two.
    stopClockAt(new Date());
    const creator = await createVerifiedCreator();
    const other = await createVerifiedCreator();
    for (const action of [...ACTIONS, ACTIONS[0]!])
      expect((await action.attempt(creator, "not my password")).status).toBe(422);
    for (const action of ACTIONS) expect((await action.attempt(creator, "not my password")).status).toBe(429);
    for (const action of ACTIONS) expect((await action.attempt(other, "not my password either")).status).toBe(422);
  });

  it("a missing password is not a guess and is not counted", async () => {
    const creator = await createVerifiedCreator();
    for (let attempt = 0; attempt < 6; attempt++) {
      const missing = await ACTIONS[1]!.attempt(creator, "");
      expect(await missing.json()).toEqual({
        message: "Please enter your password",
        errors: { password: ["Please enter your password"] },
      });
    }
    expect((await ACTIONS[1]!.attempt(creator, creator.input.password)).status).toBe(200);
  });
});
