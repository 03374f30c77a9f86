import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, createApiClient, MalformedAnswerError } from "../../app/lib/api";
import { postPageShape, updatesAnswerShape } from "../../app/lib/api-shapes";
import { array, nullable, number, object, oneOf, ShapeError, string } from "@shared/shape";
import { samplePost } from "../support/sample-post";

/** A post as GET /api/timeline sends it. */
const wirePost = () => ({
  ...structuredClone(samplePost),
  audience: "followers",
  likeCount: 2,
  commentCount: 1,
  bookmarked: true,
});

const SERVER_ERROR = "server error (translated)";

let answer: { status: number; statusText?: string; body: string | null };
let sent: { url: string; init: RequestInit }[];
let alerts: string[];

beforeEach(() => {
  sent = [];
  alerts = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    return new Response(answer.body, { status: answer.status, statusText: answer.statusText });
  });
  vi.stubGlobal("window", { alert: (text: string) => alerts.push(text), location: { assign: () => {} } });
  vi.spyOn(console, "error").mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const client = () => createApiClient({ csrfToken: "csrf", serverErrorText: () => SERVER_ERROR });

describe("the API client checks the answers it hands to the page", () => {
  it("hands over a well-formed timeline page, without fields the contract does not name", async () => {
    answer = { status: 200, body: JSON.stringify({ posts: [{ ...wirePost(), internal: "x" }], nextCursor: "abc" }) };
    const page = await client().get("/timeline", postPageShape);
    expect(page).toEqual({ posts: [wirePost()], nextCursor: "abc" });
    expect(alerts).toEqual([]);
  });

  it("reads a post stored before photos had copies (an offline copy, a cached answer) as one without copies; a malformed copy is refused", async () => {
    const older: Record<string, unknown> = { ...wirePost().media[0] };
    delete older.scaled;
    answer = { status: 200, body: JSON.stringify({ posts: [{ ...wirePost(), media: [older] }], nextCursor: null }) };
    expect((await client().get("/timeline", postPageShape)).posts[0]!.media).toEqual([{ ...older, scaled: [] }]);
    answer = {
      status: 200,
      body: JSON.stringify({
        posts: [{ ...wirePost(), media: [{ ...older, scaled: [{ width: "640", url: "/x" }] }] }],
        nextCursor: null,
      }),
    };
    await expect(client().get("/timeline", postPageShape)).rejects.toBeInstanceOf(ApiError);
  });

  it("turns a malformed post deep inside a page into a handled ApiError with the server-error text", async () => {
    const broken = { ...wirePost(), author: { id: 3, username: "mia", name: null, avatarUrl: "" } };
    answer = { status: 200, body: JSON.stringify({ posts: [wirePost(), broken], nextCursor: null }) };
    const failure = await client()
      .get("/timeline", postPageShape)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MalformedAnswerError);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).body).toEqual({ message: SERVER_ERROR, errors: {} });
    expect(alerts).toEqual([SERVER_ERROR]);
    // The log says where the answer went wrong.
    expect(String(vi.mocked(console.error).mock.calls[0]?.at(-1))).toContain("posts[1].author.name");
  });

  it("rejects an unknown enum value and a missing field", async () => {
    answer = {
      status: 200,
      body: JSON.stringify({ posts: [{ ...wirePost(), audience: "friends" }], nextCursor: null }),
    };
    await expect(client().get("/timeline", postPageShape)).rejects.toBeInstanceOf(MalformedAnswerError);
    answer = { status: 200, body: JSON.stringify({ posts: [wirePost()] }) };
    await expect(client().get("/timeline", postPageShape)).rejects.toBeInstanceOf(MalformedAnswerError);
  });

  it("treats a 2xx that is not JSON as malformed, and a quiet call does not alert", async () => {
    answer = { status: 200, body: "<html>proxy error</html>" };
    await expect(client().get("/updates", updatesAnswerShape, { quiet: true })).rejects.toBeInstanceOf(
      MalformedAnswerError,
    );
    answer = {
      status: 200,
      body: JSON.stringify({ updates: { home: "yes", notifications: 0, messages: 0, balance: false } }),
    };
    await expect(client().get("/updates", updatesAnswerShape, { quiet: true })).rejects.toBeInstanceOf(
      MalformedAnswerError,
    );
    expect(alerts).toEqual([]);
  });

  it("resolves with nothing when the caller does not read the answer, whatever JSON it is; a page that is not JSON is not the API's", async () => {
    answer = { status: 200, body: '{"liked":true,"anything":"else"}' };
    await expect(client().post("/posts/7/like")).resolves.toBeUndefined();
    await expect(client().delete("/posts/7/like")).resolves.toBeUndefined();
    answer = { status: 204, body: null };
    await expect(client().delete("/posts/7/like")).resolves.toBeUndefined();
    // A captive portal's or proxy's page: the action did not reach the server (the outbox keeps it).
    answer = { status: 200, body: "<!doctype html><title>Sign in to the Wi-Fi</title>" };
    await expect(client().delete("/posts/7/like", { quiet: true })).rejects.toBeInstanceOf(MalformedAnswerError);
  });

  it("keeps a well-formed error body and replaces a malformed one by the status text", async () => {
    answer = { status: 422, body: JSON.stringify({ message: "Invalid value", errors: { text: ["Too long"] } }) };
    const documented = await client()
      .post("/posts", {}, postPageShape)
      .catch((error: unknown) => error);
    expect((documented as ApiError).body).toEqual({ message: "Invalid value", errors: { text: ["Too long"] } });

    answer = { status: 422, statusText: "Unprocessable Entity", body: JSON.stringify({ message: 5, errors: "nope" }) };
    const malformed = await client()
      .post("/posts", {}, postPageShape)
      .catch((error: unknown) => error);
    expect((malformed as ApiError).status).toBe(422);
    expect((malformed as ApiError).body).toEqual({ message: "Unprocessable Entity", errors: {} });
  });

  it("sends JSON with the CSRF token and no response header among the request headers", async () => {
    answer = {
      status: 200,
      body: JSON.stringify({ updates: { home: true, notifications: 2, messages: 0, balance: false } }),
    };
    await client().post("/home/seen", {}, updatesAnswerShape);
    const headers = sent[0]!.init.headers as Record<string, string>;
    expect(Object.keys(headers).sort()).toEqual(["Accept", "Authorization", "Content-Type", "X-CSRF-Token"]);
    expect(headers["X-CSRF-Token"]).toBe("csrf");
  });
});

describe("shapes", () => {
  const shape = object({ id: number, kind: oneOf("a", "b"), note: nullable(string), tags: array(string) });

  it("returns what it checked", () => {
    expect(shape({ id: 1, kind: "b", note: null, tags: ["x"] })).toEqual({ id: 1, kind: "b", note: null, tags: ["x"] });
  });

  it.each([
    ["a string for a number", { id: "1", kind: "a", note: null, tags: [] }, ".id: expected number"],
    ["NaN-like infinity", { id: Infinity, kind: "a", note: null, tags: [] }, ".id: expected number"],
    ["an unknown enum value", { id: 1, kind: "c", note: null, tags: [] }, ".kind: expected a | b"],
    ["undefined for a nullable", { id: 1, kind: "a", tags: [] }, ".note: expected string"],
    ["a wrong array item", { id: 1, kind: "a", note: "n", tags: ["x", 2] }, ".tags[1]: expected string"],
    ["an object for an array", { id: 1, kind: "a", note: "n", tags: {} }, ".tags: expected array"],
  ])("refuses %s and says where", (_, value, where) => {
    expect(() => shape(value)).toThrow(new ShapeError(where));
  });

  it("refuses null, arrays and primitives where an object is expected", () => {
    for (const value of [null, [], "x", 1])
      expect(() => shape(value)).toThrow(new ShapeError("answer: expected object"));
  });
});

describe("a call that names a timeout", () => {
  it("is given up when the network never answers, as a network failure the outbox keeps for later; without one it waits", async () => {
    const { isNetworkFailure } = await import("../../app/lib/offline-copies");
    vi.stubGlobal("navigator", { onLine: true });
    // A network that swallows the request: no answer, no error, until the signal gives it up.
    vi.stubGlobal(
      "fetch",
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) => init.signal?.addEventListener("abort", () => reject(init.signal!.reason))),
    );
    const error = await client()
      .post("/posts/1/like", {}, object({ liked: number }), { quiet: true, timeoutMs: 30 })
      .catch((caught: unknown) => caught);
    expect((error as DOMException).name).toBe("TimeoutError");
    expect(isNetworkFailure(error)).toBe(true);
    expect(alerts).toEqual([]);
    let settled = false;
    void client()
      .get("/updates", updatesAnswerShape)
      .finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(settled).toBe(false);
  });
});

describe("what is a network failure", () => {
  it("an error while the browser says it is offline; never one rendered by the Worker, whose navigator has no onLine", async () => {
    const { isNetworkFailure } = await import("../../app/lib/offline-copies");
    const notFound = new Error("404");
    vi.stubGlobal("navigator", { userAgent: "Cloudflare-Workers" });
    expect(isNetworkFailure(notFound)).toBe(false);
    vi.stubGlobal("navigator", { onLine: true });
    expect(isNetworkFailure(notFound)).toBe(false);
    expect(isNetworkFailure(new TypeError("Failed to fetch"))).toBe(true);
    vi.stubGlobal("navigator", { onLine: false });
    expect(isNetworkFailure(notFound)).toBe(true);
  });
});
