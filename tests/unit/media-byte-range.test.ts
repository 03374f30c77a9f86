import { describe, expect, it } from "vitest";
import { parseByteRange } from "../../worker/domain/media/byte-range";

describe("parseByteRange", () => {
  it.each([
    ["bytes=0-99", { offset: 0, length: 100 }],
    ["bytes=100-", { offset: 100, length: 900 }],
    ["bytes=-10", { offset: 990, length: 10 }],
    ["bytes=-5000", { offset: 0, length: 1000 }],
    ["bytes=990-5000", { offset: 990, length: 10 }],
    ["bytes=999-999", { offset: 999, length: 1 }],
  ])("%s of 1000 bytes", (header, range) => {
    expect(parseByteRange(header, 1000)).toEqual(range);
  });

  it.each(["bytes=1000-", "bytes=2000-3000", "bytes=-0", "bytes=10-5"])(
    "%s of 1000 bytes is unsatisfiable",
    (header) => {
      expect(parseByteRange(header, 1000)).toBe("unsatisfiable");
    },
  );

  it.each([undefined, "", "bytes=-", "items=0-1", "bytes=0-1,5-6", "bytes=a-b"])(
    "ignores %s (serve the whole file)",
    (header) => {
      expect(parseByteRange(header, 1000)).toBeNull();
    },
  );
});
