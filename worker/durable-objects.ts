/**
 * Every Durable Object class of the Worker, the one list that the Worker entry (worker/index.ts) and the worker
 * tests' entry (tests/worker/entry.ts) both re-export: the runtime finds a class only on the entry module.
 * A class added here also needs its binding and migration in wrangler.toml.
 */
export { UserChannel } from "./realtime/user-channel";
export { ChatRoom } from "./realtime/chat-room";
export { LiveRoom } from "./realtime/live-room";
