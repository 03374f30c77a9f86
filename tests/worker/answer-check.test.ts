import { describe, expect, it } from "vitest";
import { checkAnswer, documentedSchema } from "./answer-check";
import { samplePost } from "../support/sample-post";

const post = samplePost;

const answer = (path: string, status: number, body: unknown, method = "GET") =>
  checkAnswer(new Request(`https://app.test/api${path}`, { method }), Response.json(body, { status }));

describe("the worker tier's check of every answer against the OpenAPI document", () => {
  it("passes an answer that is what the document says", async () => {
    await expect(answer("/posts/7", 200, post)).resolves.toBeUndefined();
    await expect(answer("/timeline", 200, { posts: [post], nextCursor: null })).resolves.toBeUndefined();
  });

  it("documents a photo's copies", () => {
    const documented = documentedSchema("get", "/posts/7", 200);
    expect(JSON.stringify(documented)).toContain("#/components/schemas/Post");
    expect(documentedSchema("get", "/posts/scheduled", 200)).toMatchObject({
      schema: { $ref: "#/components/schemas/PostPage" },
    });
  });

  it("fails on a field the document does not have, deep inside the answer", async () => {
    const undocumented = { ...post, media: [{ ...post.media[0], blurhash: "x" }] };
    await expect(answer("/posts/7", 200, undocumented)).rejects.toThrow(
      /GET \/api\/posts\/7 answered 200 off its OpenAPI document[\s\S]*blurhash/,
    );
  });

  it("fails on a field the document promises and the answer lacks, or of another type", async () => {
    const withoutCount: Record<string, unknown> = { ...post };
    delete withoutCount.likeCount;
    await expect(answer("/posts/7", 200, withoutCount)).rejects.toThrow(/likeCount/);
    await expect(answer("/posts/7", 200, { ...post, audience: "friends" })).rejects.toThrow(/audience/);
  });

  it("reads a nullable named schema as the schema or null", async () => {
    await expect(answer("/live/1/join", 200, { payment: null, replayed: false }, "POST")).resolves.toBeUndefined();
    await expect(answer("/live/1/join", 200, { payment: { id: 1 }, replayed: false }, "POST")).rejects.toThrow(
      /payment/,
    );
  });

  it("refuses null where an answer holds a named schema that another answer may replace by null", async () => {
    const method = { kind: "paypal", destination: "a•••@example.com", bankName: null, country: null, updatedAt: "" };
    await expect(answer("/me/payout-method", 200, { method: null })).resolves.toBeUndefined();
    await expect(answer("/me/payout-method", 200, { method }, "PUT")).resolves.toBeUndefined();
    await expect(answer("/me/payout-method", 200, { method: null }, "PUT")).rejects.toThrow(/method/);
    await expect(answer("/subscriptions/1/cancel", 200, null, "POST")).rejects.toThrow(/off its OpenAPI document/);
  });

  it("fails on a success the document does not list; an unlisted error must still be the Error body", async () => {
    await expect(answer("/posts/7", 201, post)).rejects.toThrow(/status 201 is not documented/);
    await expect(answer("/no-such-path", 200, {})).rejects.toThrow(/not documented/);
    await expect(answer("/posts/7", 429, { message: "Too many", errors: {} })).resolves.toBeUndefined();
    await expect(answer("/posts/7", 429, { error: "Too many" })).rejects.toThrow(/off its OpenAPI document/);
  });
});
