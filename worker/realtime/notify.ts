import type { Env } from "../env";

/** Placeholder until the UserChannel Durable Object lands (branch realtime). */
export async function notifyUser(_env: Env, _userId: number): Promise<void> {}
