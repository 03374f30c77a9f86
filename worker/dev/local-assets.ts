/** How long a local run waits for an asset's whole body before asking the ASSETS binding again. */
const LOCAL_ASSET_BODY_MS = 5000;

/**
 * A built file from the ASSETS binding, for a local run's Worker (`wrangler dev`); production streams
 * `assets.fetch(request)` as it comes. Locally the body is read whole within `waitMs`, else the binding is
 * asked again (three attempts at most; the last answer is passed on as it is) and the wait is logged. Why: about
 * once in a few hundred page loads of the end-to-end tier, `wrangler dev` (3.114) answered a script's headers and
 * never finished its body, and the page's load event never came (server.log of a failed run:
 * `GET /assets/shell-….js 200 OK (30502ms)`, three scripts asked for with it answered in 0.2 s). A whole body also
 * goes out with its length instead of as a stream.
 */
export async function localAsset(assets: Fetcher, request: Request, waitMs = LOCAL_ASSET_BODY_MS): Promise<Response> {
  const path = new URL(request.url).pathname;
  for (let attempt = 1; ; attempt++) {
    const response = await assets.fetch(request);
    if (!response.body || attempt === 3) return response;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), waitMs)));
    const body = await Promise.race([response.arrayBuffer(), waited]).finally(() => clearTimeout(timer));
    if (body !== null) {
      if (attempt > 1) console.warn(`[assets] ${path}: whole on attempt ${attempt}`);
      return new Response(body, response);
    }
    console.warn(`[assets] ${path}: the body was not whole after ${waitMs} ms (attempt ${attempt}); asking again`);
  }
}
