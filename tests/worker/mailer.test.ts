import { fetchMock } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { resendMailer } from "../../worker/domain/mail/mailer";

beforeAll(() => {
  fetchMock.activate();
  fetchMock.disableNetConnect();
});
afterEach(() => fetchMock.assertNoPendingInterceptors());

describe("the Resend mail driver", () => {
  const message = { to: "someone@example.test", subject: "Hello", text: "Plain", html: "<p>Html</p>" };

  it("posts the message to Resend's API with the key", async () => {
    let sent: { headers: Record<string, string>; body: unknown } | undefined;
    fetchMock
      .get("https://api.resend.com")
      .intercept({ path: "/emails", method: "POST" })
      .reply((request) => {
        sent = { headers: request.headers as Record<string, string>, body: JSON.parse(String(request.body)) };
        return { statusCode: 200, data: { id: "email_1" } };
      });
    await resendMailer("re_test_key", "Fanclub <no-reply@example.com>").send(message);
    expect(sent?.headers.authorization ?? sent?.headers.Authorization).toBe("Bearer re_test_key");
    expect(sent?.body).toEqual({
      from: "Fanclub <no-reply@example.com>",
      to: ["someone@example.test"],
      subject: "Hello",
      text: "Plain",
      html: "<p>Html</p>",
    });
  });

  it("fails loudly when Resend refuses", async () => {
    fetchMock
      .get("https://api.resend.com")
      .intercept({ path: "/emails", method: "POST" })
      .reply(422, { message: "bad from" });
    await expect(resendMailer("re_test_key", "bad").send(message)).rejects.toThrow(/Resend refused the message: 422/);
  });
});
