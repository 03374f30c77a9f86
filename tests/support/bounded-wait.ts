/**
 * `promise`'s value, or an error "timed out after <ms> ms waiting for <what>". For a wait that nothing else bounds
 * (an event, a socket's message, a script running in the page, a server's answer): unbounded, it would hang until
 * the test's own time-out, whose message says nothing of what was awaited. Each tier picks a generous `ms` under
 * its test time-out, so a busy machine only makes a passing wait slower.
 */
export async function boundedWait<T>(promise: Promise<T>, what: string, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gaveUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, gaveUp]);
  } finally {
    clearTimeout(timer);
  }
}
