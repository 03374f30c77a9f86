import { afterEach, describe, expect, it, vi } from "vitest";
import { localAsset } from "../../worker/dev/local-assets";

/** A body that sends its first bytes and then never ends, as wrangler dev's asset once did. */
const stalled = () =>
  new Response(
    new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("export const half"));
      },
    }),
    { status: 200, headers: { "Content-Type": "text/javascript" } },
  );
const whole = (text: string) => new Response(text, { status: 200, headers: { "Content-Type": "text/javascript" } });

function binding(...answers: (() => Response)[]) {
  const asked: string[] = [];
  const fetcher = {
    fetch: async (request: Request) => (asked.push(new URL(request.url).pathname), answers.shift()!()),
  } as unknown as Fetcher;
  return { fetcher, asked };
}

const request = new Request("http://localhost/assets/shell-abc.js");

describe("localAsset (worker/dev/local-assets.ts): a local run's built files", () => {
  afterEach(() => vi.restoreAllMocks());

  it("passes a whole body on at once, with its headers and length", async () => {
    const { fetcher, asked } = binding(() => whole("export const all = 1;"));
    const response = await localAsset(fetcher, request, 50);
    expect(await response.text()).toBe("export const all = 1;");
    expect(response.headers.get("Content-Type")).toBe("text/javascript");
    expect(asked).toEqual(["/assets/shell-abc.js"]);
  });

  it("asks again when a body does not end in time, and says so", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { fetcher, asked } = binding(stalled, () => whole("export const all = 2;"));
    const response = await localAsset(fetcher, request, 50);
    expect(await response.text()).toBe("export const all = 2;");
    expect(asked).toHaveLength(2);
    expect(warn.mock.calls.map((call) => String(call[0]))).toEqual([
      "[assets] /assets/shell-abc.js: the answer was not whole after 50 ms (attempt 1); asking again",
      "[assets] /assets/shell-abc.js: whole on attempt 2",
    ]);
  });

  it("asks three times at most, then passes the last answer on as it comes", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    // A fourth answer is there to be taken: only the cap keeps it from being asked for.
    const { fetcher, asked } = binding(stalled, stalled, stalled, () => whole("export const all = 4;"));
    const response = await localAsset(fetcher, request, 20);
    expect(asked).toHaveLength(3);
    // The third answer itself, still streaming: its first bytes arrive, its end never does.
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("export const half");
    await reader.cancel();
  });

  it("asks again when the headers do not come in time", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const never = new Promise<Response>(() => {});
    const answers = [() => never, async () => whole("export const all = 3;")];
    const asked: number[] = [];
    const fetcher = { fetch: () => (asked.push(asked.length), answers.shift()!()) } as unknown as Fetcher;
    const response = await localAsset(fetcher, request, 50);
    expect(await response.text()).toBe("export const all = 3;");
    expect(asked).toHaveLength(2);
  });

  it("passes an answer without a body (304) on at once", async () => {
    const { fetcher, asked } = binding(() => new Response(null, { status: 304 }));
    expect((await localAsset(fetcher, request, 50)).status).toBe(304);
    expect(asked).toHaveLength(1);
  });
});
