export function startDevServer(options: {
  stateDir: string;
  vars?: Record<string, string>;
  logFile?: string | null;
}): Promise<{ baseURL: string; output(): string; stop(): void }>;
