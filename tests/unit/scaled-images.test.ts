import { describe, expect, it } from "vitest";
import { srcSetOf } from "../../app/lib/scaled-images";
import { newVariantKey } from "../../worker/domain/media/uploads";
import { mediaKeyTypeOf } from "../../worker/domain/policies/media";

describe("a photo's copies 640 and 1280 pixels wide", () => {
  it("are offered narrowest first, then the original when it is wider still", () => {
    const copies = [
      { width: 640, url: "/media/scaled/640/a.webp" },
      { width: 1280, url: "/media/scaled/1280/b.webp" },
    ];
    expect(srcSetOf("/media/posts/o.jpg", 4000, copies)).toBe(
      "/media/scaled/640/a.webp 640w, /media/scaled/1280/b.webp 1280w, /media/posts/o.jpg 4000w",
    );
    // A photo 1000 wide has one copy; its original is the larger candidate.
    expect(srcSetOf("/media/posts/o.jpg", 1000, copies.slice(0, 1))).toBe(
      "/media/scaled/640/a.webp 640w, /media/posts/o.jpg 1000w",
    );
    // Of unknown width the original is not a candidate (the browser could not weigh it); without copies, src alone.
    expect(srcSetOf("/media/posts/o.jpg", null, copies)).toBe(
      "/media/scaled/640/a.webp 640w, /media/scaled/1280/b.webp 1280w",
    );
    expect(srcSetOf("/media/posts/o.jpg", 600, [])).toBeUndefined();
  });

  it("get keys that /media knows as copies of their width, and nothing else does", () => {
    for (const extension of ["webp", "jpg", "png"]) {
      expect(mediaKeyTypeOf(newVariantKey("w640", extension, "posts/0123456789abcdef0123456789abcdef.jpg"))).toBe(
        "w640",
      );
      expect(mediaKeyTypeOf(newVariantKey("w1280", extension, "posts/0123456789abcdef0123456789abcdef.jpg"))).toBe(
        "w1280",
      );
    }
    expect(mediaKeyTypeOf(newVariantKey("preview", "jpg"))).toBe("preview");
    expect(mediaKeyTypeOf(newVariantKey("poster", "jpg", "stories/0123456789abcdef0123456789abcdef.mp4"))).toBe(
      "story-poster",
    );
  });
});
