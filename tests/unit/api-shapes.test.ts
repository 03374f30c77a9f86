import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { apiShapesSource, GENERATED } from "../../scripts/api-shapes";
import { PostSchema } from "@shared/contracts/posts";
import { postShape } from "../../app/lib/api-shapes";
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
});
