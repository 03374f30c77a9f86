import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, buildSignUp, createUser, postJson } from "./factories";
import worker from "./entry";
import { createPost, makeCreator } from "./timeline-fixtures";

/**
 * Every operation of /api/openapi.json that takes input (a JSON body, path or query parameters) is sent bad
 * input generated from its own schema: malformed JSON, bodies that are not objects, wrong content types, each
 * required field missing, each field of every wrong type, strings of field-max+1 characters and of 1 MB,
 * control characters in every string, an unknown field, and ids and query values in every malformed spelling.
 * Each must answer a 4xx in the API's error shape and leave every table exactly as it was.
 */

interface JsonSchema {
  type?: string | string[];
  nullable?: boolean;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  maxLength?: number;
  maxItems?: number;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  additionalProperties?: boolean;
  $ref?: string;
}
interface Parameter {
  in: "path" | "query";
  name: string;
  required?: boolean;
  schema: JsonSchema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
}

interface Fixtures {
  creator: Awaited<ReturnType<typeof makeCreator>>;
  admin: Awaited<ReturnType<typeof createUser>>;
  member: Awaited<ReturnType<typeof createUser>>;
  postId: number;
}

const FUTURE = new Date(Date.now() + 7 * 86_400_000).toISOString();
const KEY = "attempt-key-0123456789";
const PASSWORD = "a long passphrase here";

/**
 * A valid body for each operation that takes JSON: the generated cases change one thing of it at a time. The
 * test fails when an operation with a JSON body has no entry here, or an entry names a field the schema lacks.
 */
const VALID_BODIES: Record<string, (f: Fixtures) => Record<string, unknown>> = {
  "POST /signup": () => ({ ...buildSignUp() }),
  "POST /login": () => ({ login: "someone@example.test", password: PASSWORD }),
  "POST /email/verify": () => ({
    id: 1,
    hash: "a".repeat(40),
    expires: Date.now() + 60_000,
    signature: "x".repeat(43),
  }),
  "POST /email/change": () => ({ email: "new@example.test", password: PASSWORD }),
  "POST /home/seen": () => ({ upTo: new Date().toISOString() }),
  "POST /me/password": () => ({
    password: PASSWORD,
    newPassword: "another long passphrase",
    newPasswordConfirmation: "another long passphrase",
  }),
  "POST /email/change/confirm": () => ({
    id: 1,
    email: "new@example.test",
    from: "a".repeat(40),
    expires: Date.now() + 60_000,
    signature: "x".repeat(43),
  }),
  "POST /login/magic-link": () => ({ email: "someone@example.test" }),
  "POST /login/token": () => ({ token: "x".repeat(43) }),
  "POST /login/two-step": () => ({ challenge: "x".repeat(43), code: "123456", trustDevice: true }),
  "POST /login/two-step/email": () => ({ challenge: "x".repeat(43) }),
  "POST /me/two-step/confirm": () => ({ code: "123456" }),
  "POST /me/two-step/off": () => ({ password: PASSWORD, code: "123456" }),
  "POST /me/two-step/recovery-codes": () => ({ code: "123456" }),
  "POST /password/forgot": () => ({ email: "someone@example.test" }),
  "POST /password/reset": () => ({
    token: "x".repeat(43),
    password: "another long passphrase",
    passwordConfirmation: "another long passphrase",
  }),
  "POST /posts": () => ({
    text: "Hello\nthere",
    audience: "everyone",
    priceCents: 0,
    mediaIds: [],
    scheduledAt: FUTURE,
  }),
  "PATCH /posts/{id}": () => ({ text: "Edited", audience: "followers", priceCents: 500, scheduledAt: FUTURE }),
  "POST /posts/{id}/comments": () => ({ text: "Nice" }),
  "PUT /me/profile": () => ({
    name: "New Name",
    bio: "Line one\nline two",
    location: "Paris",
    website: "https://example.com",
  }),
  "PUT /me/plans": () => ({ messagePriceCents: 100, plans: [{ period: "month", priceCents: 999 }] }),
  "PUT /me/geo-blocks": () => ({ places: ["DE", "US-TX"] }),
  "POST /users/{username}/subscribe": () => ({ period: "month", priceCents: 999, idempotencyKey: KEY }),
  "PUT /me/bundles": () => ({ bundles: [{ months: 3, discountPercent: 10 }] }),
  "POST /me/promotions": () => ({
    percentOff: 50,
    audience: "new",
    periods: 1,
    endsAt: new Date(Date.now() + 86_400_000).toISOString(),
  }),
  "POST /me/trial-links": () => ({ days: 7, endsAt: new Date(Date.now() + 86_400_000).toISOString() }),
  "PUT /me/retention-offer": () => ({ active: true, percentOff: 30, periods: 2 }),
  "PUT /settings/watermark": () => ({ on: false }),
  "POST /subscriptions/{id}/retain": () => ({ offerId: 1 }),
  "POST /subscriptions/{id}/plan": () => ({ period: "year", priceCents: 999 }),
  "POST /users/{username}/gift": (f) => ({
    to: f.member.user.username,
    months: 1,
    priceCents: 999,
    idempotencyKey: KEY,
  }),
  "POST /uploads": () => ({ purpose: "avatar", fileName: "me.png", contentType: "image/png", size: 1000 }),
  "POST /uploads/{id}/renditions/{name}": () => ({ contentType: "video/mp4", size: 1000 }),
  "POST /me/avatar": () => ({ mediaId: 1 }),
  "POST /me/cover": () => ({ mediaId: 1 }),
  "POST /creatorRequest": () => ({ documentMediaId: 1, selfieMediaId: 2 }),
  "POST /reports": (f) => ({
    targetKind: "user",
    username: f.member.user.username,
    reason: "other",
    description: "Why",
  }),
  "POST /admin/creatorRequests/{id}/reject": () => ({ reason: "Blurry" }),
  "POST /admin/payouts/{id}/reject": () => ({ reason: "Wrong details" }),
  "POST /posts/{id}/tips": () => ({ amountCents: 500, note: "Thanks", idempotencyKey: KEY }),
  "POST /users/{username}/tips": () => ({ amountCents: 500, note: "Thanks", idempotencyKey: KEY }),
  "POST /posts/{id}/purchase": () => ({ priceCents: 900, idempotencyKey: KEY }),
  "POST /wallet/top-ups": () => ({ amountCents: 2500, idempotencyKey: KEY }),
  "POST /wallet/top-ups/{id}/card": () => ({
    cardNumber: "4242 4242 4242 4242",
    expiry: "12/39",
    cvc: "123",
    name: "Card Holder",
  }),
  "POST /wallet/top-ups/{id}/confirmation": () => ({ decision: "confirm" }),
  "POST /payouts": () => ({ amountCents: 5000, password: PASSWORD, idempotencyKey: KEY }),
  "POST /account/deletion": () => ({ password: PASSWORD, code: "123456" }),
  "PUT /me/payout-method": () => ({
    kind: "bank",
    accountHolder: "Card Holder",
    bankName: "Bank",
    accountNumber: "DE89370400440532013000",
    routingCode: "COBADEFFXXX",
    country: "Germany",
    password: PASSWORD,
  }),
  "POST /conversations": (f) => ({ username: f.member.user.username }),
  "POST /conversations/{id}/tips": () => ({ amountCents: 500, note: "Thanks", idempotencyKey: KEY }),
  "POST /live": () => ({ title: "A stream", audience: "everyone", priceCents: 0, goalCents: null, goalTitle: null }),
  "POST /live/{id}/join": () => ({ priceCents: 400 }),
  "POST /live/{id}/tips": () => ({ amountCents: 500, note: "Thanks", idempotencyKey: KEY }),
  "POST /stories": () => ({ mediaId: 1, text: "On the beach", audience: "everyone", durationMs: null }),
  "PUT /stories/{id}/like": () => ({ liked: true }),
  "PUT /stories/{id}/highlight": () => ({ title: "Beach days" }),
  "POST /vault/albums": () => ({ name: "Beach days" }),
  "PATCH /vault/albums/{id}": () => ({ name: "Beach days" }),
  "POST /conversations/{id}/messages": () => ({
    clientId: KEY,
    text: "Hello\nthere",
    mediaIds: [],
    priceCents: 0,
    maxPaidCents: 0,
  }),
  "POST /messages/{id}/unlock": () => ({ priceCents: 500, idempotencyKey: KEY }),
  "PUT /me/welcome-message": () => ({ enabled: true, text: "Welcome", mediaIds: [], priceCents: 0 }),
  "POST /mass-messages": () => ({
    clientId: KEY,
    include: ["followers"],
    exclude: ["expired"],
    text: "Hello",
    mediaIds: [],
    priceCents: 0,
  }),
  "POST /mass-messages/count": () => ({ include: ["subscribers"], exclude: [] }),
  "PUT /mass-messages/{id}": () => ({
    include: ["followers"],
    exclude: [],
    text: "Hello",
    mediaIds: [],
    priceCents: 0,
  }),
  "POST /lists": () => ({ name: "Regulars" }),
  "PATCH /lists/{id}": () => ({ name: "Regulars" }),
  "POST /push/subscriptions": () => ({
    endpoint: "https://push.example.test/send/1",
    keys: {
      p256dh: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
      auth: "BTBZMqHH6r4Tts7J_aSIgg",
    },
  }),
  "POST /passkeys/registration/options": () => ({ name: "Laptop", password: PASSWORD }),
  "POST /passkeys": () => ({
    name: "Laptop",
    response: {
      id: "AAAA",
      rawId: "AAAA",
      type: "public-key",
      response: { clientDataJSON: "e30", attestationObject: "oA", transports: ["internal"] },
      clientExtensionResults: {},
    },
  }),
  "PATCH /passkeys/{id}": () => ({ name: "Phone" }),
  "POST /login/passkey": () => ({
    response: {
      id: "AAAA",
      rawId: "AAAA",
      type: "public-key",
      response: { clientDataJSON: "e30", authenticatorData: "AA", signature: "AA", userHandle: "AA" },
      clientExtensionResults: {},
    },
  }),
  "PUT /push/preferences": () => ({
    messages: true,
    posts: false,
    earnings: true,
    subscriptions: true,
    interactions: false,
    live: true,
  }),
};

/**
 * Every string field gets a NUL; the first one of each body also a C1 control (CSI), the rule being Unicode's Cc,
 * and a lone surrogate.
 */
const NUL = "\u0000";
const C1 = "\u009b";
/** Half of a character: JSON.stringify writes it as the escape \ud800, which no UTF-8 text can hold. */
const LONE_SURROGATE = "\ud800";
const ONE_MEGABYTE = "x".repeat(1024 * 1024);

/** How an `{id}` or a numeric query value may be misspelt: each would read as a number with `Number()`. */
const badIds = (id: number) => [`%20${id}`, `0${id}`, `${id}.0`, `%2B${id}`, "0", "9007199254740993"];

interface Case {
  name: string;
  path: string;
  query?: string;
  body?: string;
  contentType?: string;
}

function resolve(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  return schema.$ref ? resolve(doc, doc.components.schemas[schema.$ref.replace("#/components/schemas/", "")]!) : schema;
}

/** The object schema the valid body matches (the member of a union whose fields it has). */
function objectSchemaOf(doc: OpenApiDocument, schema: JsonSchema, body: Record<string, unknown>): JsonSchema {
  const resolved = resolve(doc, schema);
  const members = resolved.oneOf ?? resolved.anyOf;
  if (!members) return resolved;
  const match = members
    .map((member) => resolve(doc, member))
    .find((member) => Object.keys(body).every((key) => key in (member.properties ?? {})));
  if (!match) throw new Error(`no member of the union takes ${Object.keys(body).join(", ")}`);
  return match;
}

/**
 * Values of the wrong type for a field of this schema: null, and another scalar (a number for text, text for
 * anything else, a fraction for an integer). Objects and arrays are sent as whole bodies above.
 */
function wrongTypes(schema: JsonSchema): [string, unknown][] {
  const all: [string, unknown][] = [
    ["a string", "7"],
    ["a number", 7],
    ["a fraction", 1.5],
    ["null", null],
  ];
  // A nullable field (OpenAPI's `nullable`, or JSON Schema's ["integer", "null"]) takes null rightly.
  const declared = Array.isArray(schema.type) ? schema.type.filter((name) => name !== "null") : schema.type;
  const type = (Array.isArray(declared) ? declared[0] : declared) ?? (schema.enum ? typeof schema.enum[0] : undefined);
  const nullable = schema.nullable === true || (Array.isArray(schema.type) && schema.type.includes("null"));
  const fits: Record<string, (value: unknown) => boolean> = {
    string: (value) => typeof value === "string",
    integer: (value) => Number.isInteger(value),
    number: (value) => typeof value === "number",
    boolean: (value) => typeof value === "boolean",
    array: (value) => Array.isArray(value),
    object: (value) => typeof value === "object" && value !== null && !Array.isArray(value),
  };
  return all.filter(([, value]) => !(type && fits[type]?.(value)) && !(nullable && value === null));
}

function bodyCases(doc: OpenApiDocument, path: string, schema: JsonSchema, valid: Record<string, unknown>): Case[] {
  const json = (name: string, value: unknown): Case => ({
    name,
    path,
    body: JSON.stringify(value),
    contentType: "application/json",
  });
  const with_ = (field: string, value: unknown) => ({ ...valid, [field]: value });
  const object = objectSchemaOf(doc, schema, valid);
  const firstText = Object.keys(valid).find((field) => typeof valid[field] === "string");
  const properties = object.properties ?? {};
  for (const field of Object.keys(valid))
    if (!(field in properties)) throw new Error(`${path}: the valid body names ${field}, which the schema lacks`);
  expect(object.additionalProperties, `${path} refuses unknown fields`).toBe(false);

  const cases: Case[] = [
    { name: "malformed JSON", path, body: '{"oops": ', contentType: "application/json" },
    json("an array", []),
    json("null", null),
    { name: "no body", path, contentType: "application/json" },
    { name: "form encoding", path, body: "a=1&b=2", contentType: "application/x-www-form-urlencoded" },
    { name: "plain text", path, body: JSON.stringify(valid), contentType: "text/plain" },
    json("an unknown field", with_("unexpectedField", "x")),
    json("1 MB of text", with_(firstText ?? "padding", ONE_MEGABYTE)),
    {
      name: "a __proto__ field",
      path,
      body: JSON.stringify(valid).replace(/^\{/, '{"__proto__":{"role":"admin"},').replace(/,\}$/, "}"),
      contentType: "application/json",
    },
  ];
  for (const field of object.required ?? []) {
    cases.push(json(`no ${field}`, Object.fromEntries(Object.entries(valid).filter(([key]) => key !== field))));
  }
  for (const [field, fieldSchema] of Object.entries(properties)) {
    const resolved = resolve(doc, fieldSchema);
    for (const [label, value] of wrongTypes(resolved)) cases.push(json(`${field} as ${label}`, with_(field, value)));
    if (resolved.type === "integer")
      cases.push({
        name: `${field} beyond the safe integers`,
        path,
        body: JSON.stringify(with_(field, 0)).replace(`"${field}":0`, `"${field}":9007199254740993`),
        contentType: "application/json",
      });
    if (resolved.type === "string") {
      const base = typeof valid[field] === "string" ? (valid[field] as string) : "text";
      if (resolved.maxLength !== undefined)
        cases.push(
          json(`${field} of ${resolved.maxLength + 1} characters`, with_(field, "x".repeat(resolved.maxLength + 1))),
        );
      const controls = field === firstText ? [NUL, C1, LONE_SURROGATE] : [NUL];
      for (const control of controls)
        cases.push(
          json(
            `${field} with ${JSON.stringify(control)}`,
            with_(field, `${base.slice(0, 3)}${control}${base.slice(3)}`),
          ),
        );
    }
    if (resolved.type === "array" && resolved.items) {
      const items = resolve(doc, resolved.items);
      const first = Array.isArray(valid[field]) ? (valid[field] as unknown[])[0] : undefined;
      for (const [label, value] of wrongTypes(items))
        cases.push(json(`${field} holding ${label}`, with_(field, [value])));
      if (resolved.maxItems !== undefined && first !== undefined)
        cases.push(
          json(`${field} with ${resolved.maxItems + 1} items`, with_(field, Array(resolved.maxItems + 1).fill(first))),
        );
      if (items.properties && first && typeof first === "object") {
        cases.push(
          json(`${field} item with an unknown field`, with_(field, [{ ...(first as object), unexpectedField: 1 }])),
        );
        for (const [inner, innerSchema] of Object.entries(items.properties)) {
          for (const [label, value] of wrongTypes(resolve(doc, innerSchema)))
            cases.push(
              json(`${field}[0].${inner} as ${label}`, with_(field, [{ ...(first as object), [inner]: value }])),
            );
        }
      }
    }
  }
  return cases;
}

/** Bad spellings of each path parameter, the others kept valid. */
function pathCases(
  path: string,
  parameters: Parameter[],
  valid: Record<string, string>,
  f: Fixtures,
): { name: string; path: string }[] {
  const fill = (values: Record<string, string>) => path.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!);
  const cases: { name: string; path: string }[] = [];
  for (const parameter of parameters.filter((p) => p.in === "path")) {
    const bad =
      parameter.name === "username"
        ? [
            `${f.member.user.username}%00`,
            `${f.member.user.username}%1B`,
            `%7F${f.member.user.username}`,
            "x".repeat(65),
          ]
        : parameter.schema.enum
          ? ["nonsense", `${String(parameter.schema.enum[0])}%00`]
          : badIds(Number(valid[parameter.name]));
    for (const value of bad)
      cases.push({
        name: `${parameter.name} "${decodeURIComponent(value.replace(/%(?![0-9A-F]{2})/g, "%25"))}"`,
        path: fill({ ...valid, [parameter.name]: value }),
      });
  }
  return cases;
}

/** Bad values of each query parameter: malformed numbers and cursors, unknown enum values, control characters, over-long text. */
function queryCases(parameters: Parameter[]): { name: string; query: string }[] {
  const cases: { name: string; query: string }[] = [];
  const requiredOthers = (except: string) =>
    parameters.filter((p) => p.in === "query" && p.required && p.name !== except).map((p) => `${p.name}=ok`);
  for (const parameter of parameters.filter((p) => p.in === "query")) {
    const q = (value: string) => [...requiredOthers(parameter.name), `${parameter.name}=${value}`].join("&");
    const values: string[] = [];
    if (parameter.schema.enum) values.push("nonsense");
    if (parameter.schema.type !== "string" || parameter.schema.enum || /cursor|before|after/.test(parameter.name))
      values.push("%20123", "0123", "9007199254740993");
    values.push("x".repeat((parameter.schema.maxLength ?? 10_000) + 1));
    values.push(`ab${encodeURIComponent(NUL)}c`, `ab${encodeURIComponent(C1)}c`);
    for (const value of values) cases.push({ name: `${parameter.name}=${value.slice(0, 24)}`, query: q(value) });
    cases.push({ name: `${parameter.name} twice`, query: q(`a&${parameter.name}=b`) });
    if (parameter.required)
      cases.push({ name: `no ${parameter.name}`, query: requiredOthers(parameter.name).join("&") });
  }
  return cases;
}

/** Every row of every table (FTS shadow tables follow their base tables), in one statement. */
async function fingerprint(): Promise<Record<string, unknown>> {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE '%_search_%' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations'",
  ).all<{ name: string }>();
  const parts: string[] = [];
  for (const { name } of tables.results) {
    const columns = await env.DB.prepare(`SELECT name FROM pragma_table_info('${name}')`).all<{ name: string }>();
    parts.push(
      // json_array, not a chain of ||: SQLite refuses an expression more than 100 deep, which a wide table's chain is.
      `(SELECT count(*) || ':' || coalesce(group_concat(json_array(${columns.results.map((c) => `quote("${c.name}")`).join(", ")}), '|'), '') FROM "${name}") AS "${name}"`,
    );
  }
  return (await env.DB.prepare(`SELECT ${parts.join(", ")}`).first())!;
}

/**
 * The Worker's own fetch, called in the test's isolate: SELF.fetch gets slower with every request a runtime
 * has made (vitest-pool-workers 0.7), which a thousand requests turn into minutes.
 */
async function send(method: string, token: string, testCase: Case) {
  const { path, query, body, contentType } = testCase;
  const headers = new Headers({ Authorization: `Bearer ${token}` });
  if (contentType) headers.set("Content-Type", contentType);
  const request = new Request(`https://app.test/api${query ? `${path}?${query}` : path}`, { method, body, headers });
  return worker.fetch(request, env as never, createExecutionContext());
}

/** Bodies over the limit go through SELF: refused unread, an in-isolate request's body would outlive the test. */
const sendLarge = (method: string, token: string, testCase: Case) =>
  api(testCase.query ? `${testCase.path}?${testCase.query}` : testCase.path, {
    method,
    token,
    body: testCase.body,
    headers: testCase.contentType ? { "Content-Type": testCase.contentType } : {},
  });

describe("bad input is refused with a 4xx in the API's error shape and changes nothing", () => {
  it("every operation of the OpenAPI document, every kind of bad input", async () => {
    const doc = (await (await api("/openapi.json")).json()) as OpenApiDocument;
    const creator = await makeCreator();
    const member = await createUser();
    const admin = await createUser();
    await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(admin.user.userId).run();
    const fixtures: Fixtures = {
      creator,
      admin,
      member,
      postId: (await createPost(creator.user.userId, { text: "The original" })).id,
    };
    const validParams = (parameters: Parameter[]) =>
      Object.fromEntries(
        parameters
          .filter((p) => p.in === "path")
          .map((p) => [
            p.name,
            p.name === "username"
              ? member.user.username
              : p.schema.enum
                ? String(p.schema.enum[0])
                : p.name === "partNumber"
                  ? "1"
                  : String(fixtures.postId),
          ]),
      );

    const failures: string[] = [];
    let operations = 0;
    let requests = 0;
    const before = await fingerprint();
    for (const [template, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const parameters = operation.parameters ?? [];
        const content = operation.requestBody?.content ?? {};
        if (parameters.length === 0 && Object.keys(content).length === 0) continue;
        operations++;
        const key = `${method.toUpperCase()} ${template}`;
        const token = template.startsWith("/admin/") ? admin.token : creator.token;
        const path = template.replace(/\{(\w+)\}/g, (_, name: string) => validParams(parameters)[name]!);
        const jsonSchema = content["application/json"]?.schema;
        const valid = jsonSchema ? VALID_BODIES[key]?.(fixtures) : undefined;
        if (jsonSchema && !valid) {
          failures.push(`${key}: no valid body in VALID_BODIES`);
          continue;
        }
        const validBody: Partial<Case> = valid
          ? { body: JSON.stringify(valid), contentType: "application/json" }
          : content["application/octet-stream"]
            ? { body: "\u0089PNG", contentType: "application/octet-stream" }
            : {};
        const cases: Case[] = [
          ...(jsonSchema && valid ? bodyCases(doc, path, jsonSchema, valid) : []),
          ...pathCases(template, parameters, validParams(parameters), fixtures).map((c) => ({ ...validBody, ...c })),
          ...queryCases(parameters).map((c) => ({ ...validBody, ...c, path })),
        ];
        requests += cases.length;
        // A few at a time: the Worker answers while D1 works, and two cores finish the lot in well under a minute.
        for (let start = 0; start < cases.length; start += 8) {
          await Promise.all(
            cases.slice(start, start + 8).map(async (testCase) => {
              const response = await ((testCase.body?.length ?? 0) > 64 * 1024 ? sendLarge : send)(
                method.toUpperCase(),
                token,
                testCase,
              );
              const text = await response.text();
              const where = `${key} with ${testCase.name}: ${response.status}`;
              if (response.status < 400 || response.status >= 500)
                return void failures.push(`${where} ${text.slice(0, 200)}`);
              const payload = JSON.parse(text) as { message: unknown; errors: unknown };
              if (typeof payload.message !== "string" || typeof payload.errors !== "object" || payload.errors === null)
                failures.push(`${where}: not the error shape: ${text.slice(0, 200)}`);
            }),
          );
        }
        const after = await fingerprint();
        const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
        if (changed.length > 0) {
          failures.push(`${key}: wrote to ${changed.join(", ")}`);
          Object.assign(before, after);
        }
      }
    }
    expect(failures).toEqual([]);
    // The document lists every route; a change that dropped most of them from it would leave this test empty.
    expect(operations).toBeGreaterThanOrEqual(69);
    expect(requests).toBeGreaterThan(900);
    // About a thousand requests: well under a minute on an idle machine; the limit leaves room for a loaded one.
  }, 300_000);

  it("a body over the limit is 413, malformed JSON and a wrong content type 422, with clear messages", async () => {
    const big = await api("/login", {
      method: "POST",
      body: JSON.stringify({ login: "x".repeat(70_000), password: "y" }),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ message: "The request is too large.", errors: {} });
    const broken = await api("/login", { method: "POST", body: "{", headers: { "Content-Type": "application/json" } });
    expect(await broken.json()).toEqual({ message: "The request body must be valid JSON.", errors: {} });
    const text = await api("/login", { method: "POST", body: "hello", headers: { "Content-Type": "text/plain" } });
    expect(text.status).toBe(422);
    expect(await text.json()).toEqual({ message: "Send the request body as JSON.", errors: {} });
  });

  it("an empty sign-in or name says the field is required", async () => {
    const login = await api("/login", { method: "POST", body: JSON.stringify({ login: "  ", password: "" }) });
    expect(login.status).toBe(422);
    expect(((await login.json()) as { errors: unknown }).errors).toEqual({
      login: ["This field is required."],
      password: ["This field is required."],
    });
    const signup = await api("/signup", { method: "POST", body: JSON.stringify({ ...buildSignUp(), name: " " }) });
    expect(((await signup.json()) as { errors: unknown }).errors).toEqual({ name: ["This field is required."] });
  });

  it('a field without a rule of its own says "Invalid value"; so does an unknown field, under its own name', async () => {
    const response = await api("/signup", {
      method: "POST",
      body: JSON.stringify({ ...buildSignUp(), name: 7, accountType: "robot", nickname: "x" }),
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { errors: unknown }).errors).toEqual({
      name: ["Invalid value"],
      accountType: ["Invalid value"],
      nickname: ["Invalid value"],
    });
  });

  it("a control character in a name, a password or a post says what the field allows; line breaks and tabs stay in post text", async () => {
    const ONE_LINE = "This field may not contain control characters, tabs or line breaks.";
    const signUp = await postJson("/signup", buildSignUp({ name: "Ann\u0000" }));
    expect(signUp.status).toBe(422);
    expect(await signUp.json()).toEqual({ message: ONE_LINE, errors: { name: [ONE_LINE] } });
    const login = await postJson("/login", { login: "someone@example.test", password: "pass\u0000word" });
    expect(login.status).toBe(422);
    expect(((await login.json()) as { errors: unknown }).errors).toEqual({ password: [ONE_LINE] });

    const creator = await makeCreator();
    const nul = await postJson("/posts", { text: "Hello\u0000", audience: "everyone" }, { token: creator.token });
    expect(nul.status).toBe(422);
    expect(((await nul.json()) as { errors: unknown }).errors).toEqual({
      text: ["This text may not contain control characters; only line breaks and tabs are allowed."],
    });
    const layout = await postJson(
      "/posts",
      { text: "Line one\r\n\tindented", audience: "everyone" },
      { token: creator.token },
    );
    expect(layout.status).toBe(201);
    expect(((await layout.json()) as { text: string }).text).toBe("Line one\r\n\tindented");
  });

  it("an id with a space, a sign, a leading zero or a fraction is a 422 for every method, and the post stays as it was", async () => {
    const creator = await makeCreator();
    const { id } = await createPost(creator.user.userId, { text: "Unchanged" });
    for (const spelling of [`%20${id}`, `0${id}`, `${id}.0`, `%2B${id}`]) {
      const patch = await api(`/posts/${spelling}`, {
        method: "PATCH",
        body: JSON.stringify({ text: "Changed" }),
        token: creator.token,
      });
      expect(patch.status, `PATCH ${spelling}`).toBe(422);
      const remove = await api(`/posts/${spelling}`, { method: "DELETE", token: creator.token });
      expect(remove.status, `DELETE ${spelling}`).toBe(422);
      expect((await api(`/posts/${spelling}`, { token: creator.token })).status, `GET ${spelling}`).toBe(422);
    }
    const post = (await (await api(`/posts/${id}`, { token: creator.token })).json()) as { text: string };
    expect(post.text).toBe("Unchanged");
  });

  it("unknown API paths and methods are JSON 404s", async () => {
    for (const [method, path] of [
      ["GET", "/nothing-here"],
      ["DELETE", "/me"],
      ["GET", "/login"],
    ]) {
      const response = await api(path!, { method });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(await response.json()).toEqual({ message: "Not found.", errors: {} });
    }
  });
});
