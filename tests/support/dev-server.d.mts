export function startDevServer(options: { stateDir: string; vars?: Record<string, string> }): Promise<{ baseURL: string; stop(): void }>;
