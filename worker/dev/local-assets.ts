/** How long a local run waits for an asset's whole answer before asking the ASSETS binding again. */
const LOCAL_ASSET_BODY_MS = 5000;

/**
 * A built file from the ASSETS binding, for a local run's Worker (`wrangler dev`); production streams
 * `assets.fetch(request)` as it comes. Locally the answer, headers and body, must be whole within `waitMs`, else
 * the binding is asked again (three attempts at most; the last answer is passed on as it comes) and the wait is
 * logged. Why: now and then in the end-to-end tier, `wrangler dev` (3.114) answered a script's headers and never
 * finished its body, or gave its headers only after 30 s (server.log of failed runs:
 * `GET /assets/shell-….js 200 OK (30502ms)`, `GET /assets/_shell.post._id-….js 304 Not Modified (30314ms)`, the
 * scripts asked for with it answered in 0.2 s), and the page's load event never came. A whole body also goes out
 * with its length instead of as a stream.
 */
export async function localAsset(assets: Fetcher, request: Request, waitMs = LOCAL_ASSET_BODY_MS): Promise<Response> {
  const path = new URL(request.url).pathname;
  for (let attempt = 1; ; attempt++) {
    if (attempt === 3) return assets.fetch(request);
    const read = assets
      .fetch(request)
      .then(async (response) => (response.body ? new Response(await response.arrayBuffer(), response) : response));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), waitMs)));
    const answer = await Promise.race([read, waited]).finally(() => clearTimeout(timer));
    if (answer !== null) {
      if (attempt > 1) console.warn(`[assets] ${path}: whole on attempt ${attempt}`);
      return answer;
    }
    // The abandoned attempt may still fail later: nobody waits for it any more.
    read.catch(() => {});
    console.warn(`[assets] ${path}: the answer was not whole after ${waitMs} ms (attempt ${attempt}); asking again`);
  }
}
