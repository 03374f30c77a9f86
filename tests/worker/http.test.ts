import { createExecutionContext, env, SELF } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createApp } from "../../worker/app";
import { securityHeaders } from "../../worker/http/middleware";
import type { AppEnv } from "../../worker/http/types";
import { api, createUser } from "./factories";

/** A response that is not a page allows no inline script at all: only pages get a nonce (worker/app.ts). */
function expectSecurityHeaders(response: Response, scriptSource: RegExp = /script-src 'self'(;|$)/) {
  const csp = response.headers.get("Content-Security-Policy") ?? "";
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toMatch(scriptSource);
  // 'wasm-unsafe-eval' (pages compile the AAC encoder's WebAssembly) allows no eval of JavaScript.
  expect(csp).not.toContain("'unsafe-eval'");
  expect(response.headers.get("Strict-Transport-Security")).toMatch(/max-age=\d{8}/);
  expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
  expect(response.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
}

type JsonSchema = { [key: string]: unknown };

/** Whether a JSON Schema, as written (a `$ref` taken as not null), accepts null. */
function allowsNull(schema: JsonSchema): boolean {
  const types = ([] as unknown[]).concat(schema.type ?? []);
  const options = [schema.anyOf, schema.oneOf].flatMap((list) => (Array.isArray(list) ? (list as JsonSchema[]) : []));
  return (
    types.includes("null") || (Array.isArray(schema.enum) && schema.enum.includes(null)) || options.some(allowsNull)
  );
}

describe("HTTP", () => {
  it("sets the security headers on every kind of response", async () => {
    const { token } = await createUser();
    expectSecurityHeaders(await api("/me", { token }));
    expectSecurityHeaders(await api("/me"));
    expectSecurityHeaders(await api("/nothing"));
    expectSecurityHeaders(await api("/login", { method: "POST", body: "{" }));
    expectSecurityHeaders(await SELF.fetch("https://app.test/favicon.svg"));
    expectSecurityHeaders(await SELF.fetch("https://app.test/media/public/avatars/none.png"));
  });

  it("sets them on a response whose headers cannot be changed (a binding's, a redirect), keeping what it says", async () => {
    // Response.redirect's headers are immutable, as those of a response from the ASSETS binding or a fetch are.
    const redirect = Response.redirect("https://app.test/elsewhere", 302);
    expect(() => redirect.headers.set("X-Test", "1")).toThrow(TypeError);
    const app = new Hono<AppEnv>();
    app.use(securityHeaders);
    app.get("/moved", () => Response.redirect("https://app.test/elsewhere", 302));
    const response = await app.fetch(new Request("https://app.test/moved"), env, createExecutionContext());
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("https://app.test/elsewhere");
    expectSecurityHeaders(response);
  });

  it("gives each page its own nonce, the one its scripts carry, and keeps API answers out of caches", async () => {
    // The page handler as production has it, with a render that writes the nonce it is given into a script tag.
    const pages = createApp(
      async (_request, context) =>
        new Response(`<script nonce="${context.nonce}"></script>`, { headers: { "Content-Type": "text/html" } }),
    );
    const page = () => pages.fetch(new Request("https://app.test/home"), env, createExecutionContext());
    const nonces = [];
    for (const response of [await page(), await page()]) {
      expectSecurityHeaders(response, /script-src 'self' 'nonce-[A-Za-z0-9_-]{22}' 'wasm-unsafe-eval'(;|$)/);
      const nonce = /'nonce-([^']+)'/.exec(response.headers.get("Content-Security-Policy")!)![1];
      expect(await response.text()).toBe(`<script nonce="${nonce}"></script>`);
      nonces.push(nonce);
    }
    expect(nonces[0]).not.toBe(nonces[1]);
    const answer = await api("/me");
    expect(answer.headers.get("Content-Security-Policy")).not.toContain("nonce");
    expect(answer.headers.get("Cache-Control")).toBe("no-store");
  });

  it("serves an OpenAPI 3.1 document listing every endpoint", async () => {
    const response = await api("/openapi.json");
    expect(response.status).toBe(200);
    const doc = (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe("3.1.0");
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(
      [
        "GET /health",
        "GET /me",
        "GET /notifications",
        "GET /searchUsers",
        "GET /suggestedProfiles",
        "GET /updates",
        "POST /home/seen",
        "POST /notifications/read",
        "POST /notifications/test",
        "POST /email/change",
        "POST /email/change/confirm",
        "POST /email/verification-notification",
        "POST /email/verify",
        "POST /login",
        "POST /login/magic-link",
        "POST /login/token",
        // Two-step sign-in
        "POST /login/two-step",
        "POST /login/two-step/email",
        "GET /me/two-step",
        "POST /me/two-step/setup",
        "POST /me/two-step/confirm",
        "POST /me/two-step/off",
        "POST /me/two-step/recovery-codes",
        "POST /logout",
        "POST /password/forgot",
        "POST /password/reset",
        "POST /signup",
        "DELETE /posts/{id}",
        "GET /posts/processing",
        "GET /posts/scheduled",
        "PATCH /posts/{id}",
        "POST /posts",
        "POST /posts/{id}/publish",
        // Timeline and interactions
        "GET /timeline",
        "GET /timeline/new",
        "GET /posts/{id}",
        "POST /posts/{id}/like",
        "DELETE /posts/{id}/like",
        "POST /posts/{id}/bookmark",
        "DELETE /posts/{id}/bookmark",
        "GET /bookmarks",
        "GET /posts/{id}/comments",
        "POST /posts/{id}/comments",
        "DELETE /comments/{id}",
        "GET /search/posts",
        "GET /users/{username}",
        "GET /users/{username}/posts",
        "PUT /me/profile",
        "POST /users/{username}/follow",
        "DELETE /users/{username}/follow",
        "GET /users/{username}/plans",
        "PUT /me/plans",
        "POST /users/{username}/subscribe",
        "POST /subscriptions/{id}/cancel",
        "GET /me/subscriptions",
        // Offers
        "PUT /me/bundles",
        "GET /me/offers",
        "POST /me/promotions",
        "POST /me/trial-links",
        "POST /me/offers/{id}/end",
        "PUT /me/retention-offer",
        "GET /subscriptions/{id}/retention-offer",
        "POST /subscriptions/{id}/retain",
        "POST /subscriptions/{id}/plan",
        "POST /users/{username}/gift",
        "POST /uploads",
        "GET /uploads/{id}",
        "DELETE /uploads/{id}",
        "POST /uploads/{id}/complete",
        "POST /uploads/{id}/renditions/{name}",
        "POST /uploads/{id}/renditions/{name}/complete",
        "GET /settings/watermark",
        "PUT /settings/watermark",
        "POST /me/avatar",
        "POST /me/cover",
        "GET /creatorRequest",
        "POST /creatorRequest",
        "POST /reports",
        "POST /users/{username}/block",
        "DELETE /users/{username}/block",
        "GET /blocks",
        "GET /admin/creatorRequests",
        "POST /admin/creatorRequests/{id}/approve",
        "POST /admin/creatorRequests/{id}/reject",
        "GET /admin/reports",
        "POST /admin/reports/{id}/{action}",
        "PUT /uploads/{id}/parts/{partNumber}",
        "PUT /uploads/{id}/renditions/{name}/parts/{partNumber}",
        "PUT /uploads/{id}/poster",
        "PUT /uploads/{id}/preview",
        "PUT /uploads/{id}/w1280",
        "PUT /uploads/{id}/w640",
        "PUT /uploads/{id}/marked",
        // Money
        "GET /wallet",
        "POST /posts/{id}/tips",
        "POST /users/{username}/tips",
        "POST /posts/{id}/purchase",
        "POST /wallet/top-ups",
        "GET /wallet/top-ups/{id}",
        "POST /wallet/top-ups/{id}/card",
        "POST /wallet/top-ups/{id}/confirmation",
        "POST /webhooks/stripe",
        "GET /dashboard/earnings",
        "GET /payouts",
        "POST /payouts",
        "GET /me/payout-method",
        "PUT /me/payout-method",
        "GET /admin/payouts",
        "POST /admin/payouts/{id}/paid",
        "POST /admin/payouts/{id}/reject",
        "POST /me/password",
        "GET /me/sessions",
        "DELETE /me/sessions/{id}",
        "POST /me/sessions/end-others",
        "GET /conversations",
        "POST /conversations",
        "GET /conversations/{id}",
        "DELETE /conversations/{id}",
        "GET /conversations/{id}/messages",
        "POST /conversations/{id}/messages",
        "POST /conversations/{id}/read",
        "POST /conversations/{id}/tips",
        "GET /conversations/{id}/media",
        "POST /messages/{id}/unlock",
        "POST /mass-messages",
        "POST /mass-messages/count",
        "PUT /mass-messages/{id}",
        "POST /mass-messages/{id}/cancel",
        "POST /mass-messages/{id}/unsend",
        // Web push
        "GET /push",
        "POST /push/subscriptions",
        "DELETE /push/subscriptions/{id}",
        "PUT /push/preferences",
        "POST /push/test",
        "GET /mass-messages",
        "GET /me/welcome-message",
        "PUT /me/welcome-message",
        "GET /me/fans",
        // Live streams
        "GET /live",
        "POST /live",
        "GET /live/current",
        "GET /live/{id}",
        "GET /live/{id}/media",
        "POST /live/{id}/join",
        "POST /live/{id}/end",
        "POST /live/{id}/tips",
        // Stories
        "GET /stories",
        "POST /stories",
        "GET /stories/users/{username}",
        "DELETE /stories/{id}",
        "POST /stories/{id}/view",
        "PUT /stories/{id}/like",
        "GET /stories/{id}/viewers",
        "PUT /stories/{id}/highlight",
        "DELETE /stories/{id}/highlight",
        "GET /users/{username}/highlights",
        "GET /highlights",
        "GET /highlights/{id}",
        "DELETE /highlights/{id}",
        "GET /account/data-export",
        "POST /account/data-export",
        "GET /account/deletion",
        "POST /account/deletion",
        "DELETE /account/deletion",
        "GET /me/geo-blocks",
        "PUT /me/geo-blocks",
        "GET /vault",
        "GET /vault/albums",
        "POST /vault/albums",
        "PATCH /vault/albums/{id}",
        "DELETE /vault/albums/{id}",
        "PUT /vault/albums/{id}/items/{mediaId}",
        "DELETE /vault/albums/{id}/items/{mediaId}",
        "GET /vault/{mediaId}/uses",
        "DELETE /vault/{mediaId}",
        // Fan lists
        "GET /lists",
        "POST /lists",
        "PATCH /lists/{id}",
        "DELETE /lists/{id}",
        "GET /lists/{ref}/fans",
        "PUT /lists/{id}/fans/{username}",
        "DELETE /lists/{id}/fans/{username}",
        "GET /lists/memberships/{username}",
        "GET /me/fans/{username}",
        // Passkeys
        "GET /passkeys",
        "POST /passkeys/registration/options",
        "POST /passkeys",
        "PATCH /passkeys/{id}",
        "DELETE /passkeys/{id}",
        "POST /login/passkey/options",
        "POST /login/passkey",
      ].sort(),
    );
    const signup = doc.paths["/signup"]!.post as {
      requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
    };
    expect(Object.keys(signup.requestBody.content["application/json"]!.schema.properties).sort()).toEqual([
      "accountType",
      "dateOfBirth",
      "email",
      "name",
      "password",
      "username",
    ]);
  });

  it("names no component that allows null: a field that may be null puts null beside the component", async () => {
    const doc = (await (await api("/openapi.json")).json()) as {
      components: { schemas: Record<string, JsonSchema> };
    };
    const components = doc.components.schemas;
    // Every answer that holds a component takes it as it is: a nullable one would let a null through all of them.
    expect(Object.keys(components).filter((name) => allowsNull(components[name]!))).toEqual([]);
    // An `allOf` of a component and a null type is read by JSON Schema as the component alone: never null.
    expect(JSON.stringify(components)).not.toMatch(/"allOf":\[\{"\$ref":[^\]]*"null"/);
    const field = (component: string, key: string) =>
      (components[component]!.properties as Record<string, JsonSchema>)[key]!;
    for (const [component, key, named] of [
      ["Profile", "subscription", "Subscription"],
      ["CurrentPayoutMethod", "method", "PayoutMethod"],
      ["CurrentLiveStream", "stream", "LiveStream"],
      ["LiveEntry", "payment", "Payment"],
    ] as const) {
      expect(allowsNull(field(component, key)), `${component}.${key} allows null`).toBe(true);
      expect(JSON.stringify(field(component, key))).toContain(`"#/components/schemas/${named}"`);
    }
  });
});
