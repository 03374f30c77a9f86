import { Hono } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import { describe, expect, it } from "vitest";
import { MemoRouter } from "../../worker/http/memo-router";
import { sha256Hex } from "../../worker/domain/shared/crypto";

/** An app with the shapes of the Worker's routes: a parameter beside literals, middleware on everything. */
function app(router: object = new MemoRouter()) {
  const seen: string[] = [];
  const hono = new Hono({ router: router as never });
  hono.use(async (c, next) => {
    seen.push(`use ${c.req.path}`);
    await next();
  });
  hono.get("/posts/scheduled", (c) => c.text("scheduled"));
  hono.get("/posts/:id", (c) => c.text(`post ${c.req.param("id")}`));
  hono.get("/posts/:id/comments", (c) => c.text(`comments of ${c.req.param("id")}`));
  hono.post("/posts/:id", (c) => c.text(`edit ${c.req.param("id")}`));
  hono.all("*", (c) => c.text("page", 404));
  return { hono, seen };
}

const text = async (hono: Hono, path: string, method = "GET") => {
  const response = await hono.request(path, { method });
  return `${response.status} ${await response.text()}`;
};

describe("the Worker's router, with its answers kept per method and path", () => {
  it("answers as Hono's own router does, each path with its own parameters, also when asked again", async () => {
    const memo = app();
    const plain = app(new TrieRouter());
    for (let round = 0; round < 2; round++) {
      for (const [path, method] of <[string, string][]>[["/posts/7", "GET"], ["/posts/8", "GET"], ["/posts/scheduled", "GET"], ["/posts/7/comments", "GET"], ["/posts/7", "POST"], ["/nothing", "GET"]]) {
        expect(await text(memo.hono, path, method)).toBe(await text(plain.hono, path, method));
      }
    }
    expect(await text(memo.hono, "/posts/7")).toBe("200 post 7");
    expect(await text(memo.hono, "/posts/8")).toBe("200 post 8");
    expect(await text(memo.hono, "/posts/7", "POST")).toBe("200 edit 7");
    expect(await text(memo.hono, "/posts/scheduled")).toBe("200 scheduled");
    // The middleware runs on every request, kept answer or not.
    expect(memo.seen.filter((line) => line === "use /posts/7")).toHaveLength(6);
  });

  it("keeps one answer per method and path, and gives the same one back", () => {
    const router = new MemoRouter<string>();
    router.add("GET", "/posts/:id", "post");
    router.add("GET", "/posts/scheduled", "scheduled");
    const first = router.match("GET", "/posts/7");
    expect(router.match("GET", "/posts/7")).toBe(first);
    expect(router.match("GET", "/posts/8")).not.toBe(first);
    expect(router.match("POST", "/posts/7")).not.toBe(first);
    expect(router.size).toBe(3);
  });

  it("forgets what it kept when a route is added, so the new route is found", () => {
    // Hono's SmartRouter refuses routes once it has matched; a router that takes them later must not be shadowed.
    const router = new MemoRouter<string>(new TrieRouter<string>());
    router.add("GET", "/a", "a");
    expect(router.match("GET", "/b")[0]).toHaveLength(0);
    router.add("GET", "/b", "b");
    expect(router.size).toBe(0);
    expect(router.match("GET", "/b")[0].map(([handler]) => handler)).toEqual(["b"]);
  });

  it("keeps at most its capacity, letting the oldest answer go", () => {
    const router = new MemoRouter<string>(new TrieRouter<string>(), 3);
    router.add("GET", "/posts/:id", "post");
    const first = router.match("GET", "/posts/1");
    for (const id of [2, 3, 4]) router.match("GET", `/posts/${id}`);
    expect(router.size).toBe(3);
    const again = router.match("GET", "/posts/1");
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    expect(router.size).toBe(3);
  });
});

describe("sha256Hex", () => {
  it("writes the digest in lowercase hex, two digits a byte", async () => {
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(await sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });
});
