// What every benchmark measures with: percentiles, one-at-a-time latencies and concurrent throughput, over
// loopback against the local server (Miniflare). A request that does not answer 200 is an error (latencies) or
// counted as failed (throughput): a figure made of refusals would look fast.

/** The p-th percentile of an ascending list. */
export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** `count` GETs of `url` one after another, the whole body read each time: their times in ms, ascending. */
export async function latencies(url, headers, count) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await fetch(url, { headers, redirect: "manual" });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${body.slice(0, 200)}`);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

/** `concurrency` clients GETting `url` back to back for `durationMs`: answers per second, refusals, requests made. */
export async function throughput(url, headers, { durationMs, concurrency }) {
  let done = 0;
  let failed = 0;
  const deadline = performance.now() + durationMs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
        if (response.ok) done++;
        else failed++;
      }
    }),
  );
  return { perSecond: done / ((performance.now() - started) / 1000), failed, requests: done + failed };
}
