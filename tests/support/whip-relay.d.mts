/** A WHIP/WHEP relay on 127.0.0.1 (werift): URL templates with `{stream}`, as LIVE_WHIP_URL/LIVE_WHEP_URL take them. */
export function startWhipRelay(): Promise<{ origin: string; whipUrl: string; whepUrl: string; stop(): Promise<void> }>;
