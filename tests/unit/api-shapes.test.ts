import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as combinators from "@shared/shape";
import { apiShapesSource, expression, GENERATED } from "../../scripts/api-shapes";
import { LiveMediaSchema } from "@shared/contracts/live";
import { NotificationSchema } from "@shared/contracts/notifications";
import { liveMediaShape } from "../../app/components/live/live-shapes";
import { notificationShape } from "../../app/lib/notification-shape";
import { PostSchema, ProcessingPostPageSchema } from "@shared/contracts/posts";
import { postShape } from "../../app/lib/api-shapes";
import { processingPostPageShape } from "../../app/components/posts/processing-shape";
import { samplePost } from "../support/sample-post";

/** Layout aside (a formatter may rewrap the file): whitespace and trailing commas do not count. */
const code = (text: string) => text.replace(/\s+/g, "").replace(/,([}\])])/g, "$1");

describe("the page's checks of the API's answers", () => {
  it.each(Object.keys(GENERATED))(
    "in %s are the ones written from the contracts' schemas (run `npm run generate:api-shapes` after changing one)",
    (file) => {
      expect(code(readFileSync(new URL(`../../${file}`, import.meta.url), "utf8"))).toBe(code(apiShapesSource(file)));
    },
  );

  it("accept what the contract accepts and refuse what it refuses, field by field", () => {
    const post = PostSchema.parse(samplePost);
    expect(postShape(post)).toEqual(post);
    for (const key of Object.keys(PostSchema.shape)) {
      const broken: Record<string, unknown> = { ...post };
      delete broken[key];
      expect(PostSchema.safeParse(broken).success, key).toBe(false);
      expect(() => postShape(broken), key).toThrow();
    }
  });

  it("check optional fields, literals and unions as zod does", () => {
    const schema = z.object({
      note: z.string().optional(),
      event: z.discriminatedUnion("kind", [
        z.object({ kind: z.literal("tip"), cents: z.number() }),
        z.object({ kind: z.literal("like"), postId: z.number() }),
      ]),
      level: z.literal([1, 2]),
      // orNull's form: a named answer or null.
      stream: z.union([z.object({ id: z.number() }), z.null()]),
    });
    // The generated expression, evaluated with the page's combinators.
    const check = new Function(...Object.keys(combinators), `return ${expression(schema)};`)(
      ...Object.values(combinators),
    ) as (value: unknown) => unknown;
    const samples = [
      { event: { kind: "tip", cents: 5 }, level: 1, stream: null },
      { note: "hi", event: { kind: "like", postId: 3 }, level: 2, stream: { id: 7 } },
      { note: 4, event: { kind: "tip", cents: 5 }, level: 1, stream: null },
      { event: { kind: "tip", postId: 5 }, level: 1, stream: null },
      { event: { kind: "boo", cents: 5 }, level: 1, stream: null },
      { event: { kind: "like", postId: 3 }, level: 3, stream: null },
      { event: { kind: "tip", cents: 5 }, level: 1, stream: { id: "7" } },
      { event: { kind: "tip", cents: 5 }, level: 1 },
    ];
    for (const sample of samples) {
      const accepted = schema.safeParse(sample).success;
      if (accepted) expect(check(sample), JSON.stringify(sample)).toEqual(sample);
      else expect(() => check(sample), JSON.stringify(sample)).toThrow();
    }
    expect(samples.filter((sample) => schema.safeParse(sample).success)).toHaveLength(2);
  });

  it("of a union and a map (the live media, a notification) take and refuse what their contracts do", () => {
    const notification = { id: 1, kind: "tip", actor: null, read: false, createdAt: "2026-01-01T00:00:00.000Z" };
    const cases: [z.ZodType, (value: unknown) => unknown, unknown[]][] = [
      [
        LiveMediaSchema,
        liveMediaShape,
        [
          { transport: "p2p", iceServers: [{ urls: ["stun:a"] }], loopbackOnly: false, maxViewers: 4 },
          {
            transport: "whip",
            iceServers: [{ urls: ["turn:a"], username: "u", credential: "c" }],
            loopbackOnly: true,
            publishUrl: null,
            playUrl: "https://sfu.example/play",
          },
          { transport: "whip", iceServers: [], loopbackOnly: false, maxViewers: 4 },
          { transport: "p2p", iceServers: [{ urls: ["turn:a"], username: 5 }], loopbackOnly: false, maxViewers: 4 },
        ],
      ],
      [
        NotificationSchema,
        notificationShape,
        [
          { ...notification, params: { amountCents: 500, postId: 3, status: "paid" } },
          { ...notification, kind: "unheard_of", params: {} },
          { ...notification, params: { postId: true } },
        ],
      ],
    ];
    for (const [schema, check, samples] of cases)
      for (const sample of samples) {
        const parsed = schema.safeParse(sample);
        if (parsed.success) expect(check(sample), JSON.stringify(sample)).toEqual(parsed.data);
        else expect(() => check(sample), JSON.stringify(sample)).toThrow();
      }
    expect(
      cases.flatMap(([schema, , samples]) => samples.filter((sample) => schema.safeParse(sample).success)),
    ).toHaveLength(3);
  });

  it("reuse a check another file exports, and spread the fields of the object an answer extends", () => {
    const source = apiShapesSource("app/components/posts/processing-shape.ts");
    expect(source).toContain('import { postFields } from "~/lib/api-shapes";');
    expect(code(source)).toContain("object({...postFields,uploads:");
    const page = {
      posts: [{ ...samplePost, uploads: [{ id: 1, kind: "video", status: "uploading" }] }],
      nextCursor: null,
    };
    expect(processingPostPageShape(page)).toEqual(ProcessingPostPageSchema.parse(page));
    for (const broken of [
      { ...page, posts: [{ ...page.posts[0], uploads: [{ id: 1, kind: "video", status: "lost" }] }] },
      { ...page, posts: [{ ...page.posts[0], liked: undefined }] },
    ]) {
      expect(ProcessingPostPageSchema.safeParse(broken).success).toBe(false);
      expect(() => processingPostPageShape(broken)).toThrow();
    }
  });
});
