import { describe, expect, it } from "vitest";
import { newVariantKey } from "../../worker/domain/media/uploads";
import { mediaKeyTypeOf } from "../../worker/domain/policies/media";
import { markedSizeOf, watermarkLayout, watermarkText } from "../../shared/watermark";

describe("the mark on a creator's photos", () => {
  it("is the profile's address without its scheme", () => {
    expect(watermarkText("https://fans.example.com", "alice")).toBe("fans.example.com/alice");
    expect(watermarkText("http://localhost:8787", "bob_2")).toBe("localhost:8787/bob_2");
  });

  it("sits in the bottom right corner, at a size relative to the picture's shorter side", () => {
    // A short text (1 px of font: 5 px wide): the shorter side decides. 4.5% of 3000 is 135, margins 3% (90).
    expect(watermarkLayout(4000, 3000, 5)).toEqual({
      fontSize: 135,
      x: 3910,
      y: 2910,
      shadowBlur: 34,
      shadowOffset: 8,
    });
    // Its copy 640 wide (640×480): the same mark scaled, 4.5% of 480 = 21.6, margin 14.4 → 14.
    expect(watermarkLayout(640, 480, 5)).toEqual({ fontSize: 21, x: 626, y: 466, shadowBlur: 5, shadowOffset: 1 });
    // Portrait: the width is the shorter side.
    expect(watermarkLayout(1000, 2000, 5)).toMatchObject({ fontSize: 45, x: 970, y: 1970 });
  });

  it("gets smaller rather than cross more than 60% of the picture's width, and never below 6 px", () => {
    // A long address, 30 px wide per px of font: 0.6 × 1000 / 30 = 20 px, under 4.5% of 1000 (45).
    const long = watermarkLayout(1000, 1000, 30);
    expect(long.fontSize).toBe(20);
    expect(long.fontSize * 30).toBeLessThanOrEqual(600);
    expect(watermarkLayout(40, 40, 30).fontSize).toBe(6);
    expect(watermarkLayout(40, 40, 5)).toMatchObject({ x: 38, y: 38 });
  });

  it("a full-size marked copy is the photo's size, or fits 4096 pixels (Safari's largest canvas) keeping its shape", () => {
    expect(markedSizeOf(4000, 3000)).toEqual({ width: 4000, height: 3000 });
    expect(markedSizeOf(4096, 10)).toEqual({ width: 4096, height: 10 });
    // 48 megapixels, 8064×6048: scaled by 4096/8064 → 4096 × 3072.
    expect(markedSizeOf(8064, 6048)).toEqual({ width: 4096, height: 3072 });
    // Portrait 24 megapixels, 4284×5712: 4096/5712 of 4284 is 3072.
    expect(markedSizeOf(4284, 5712)).toEqual({ width: 3072, height: 4096 });
    expect(markedSizeOf(9000, 1)).toEqual({ width: 4096, height: 1 });
  });

  it("full-size marked copies get keys /media knows as marked copies", () => {
    for (const extension of ["webp", "jpg", "png"]) {
      const key = newVariantKey("marked", extension);
      expect(key).toMatch(/^marked\/[a-f0-9]{32}\./);
      expect(mediaKeyTypeOf(key)).toBe("marked");
    }
    expect(mediaKeyTypeOf("marked/../posts/0123456789abcdef0123456789abcdef.jpg")).toBeNull();
  });
});
