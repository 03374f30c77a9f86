import type { Env } from "../env";
import type { DomainEvent, Publish } from "../domain/events";
import type { Defer } from "../domain/shared/defer";
import { forgetSessionsOf } from "../domain/auth/sessions";
import { deliverToPush } from "../push/delivery";
import { deliverToSockets } from "../realtime/socket-delivery";
import { deliverToLiveMedia } from "../live/media-delivery";

/** A delivery adapter: reaches the people an event concerns through one channel. It may throw; nothing waits. */
export type DeliveryAdapter = (env: Env, event: DomainEvent) => Promise<unknown>;

/** Every channel an event goes out on: the sockets (chat and live rooms), web push, and live media inputs. */
const DELIVERY_ADAPTERS: readonly DeliveryAdapter[] = [deliverToSockets, deliverToPush, deliverToLiveMedia];

/**
 * The `publish` of a request or a cron run: each event goes to every adapter after the answer (`defer` is the
 * runtime's waitUntil). Adapters run independently; a failing one is logged and never affects another, nor the
 * command that published.
 */
export function createPublisher(
  env: Env,
  defer: Defer,
  adapters: readonly DeliveryAdapter[] = DELIVERY_ADAPTERS,
): Publish {
  return (event) => {
    // Ended sessions are refused by this isolate's very next request, not only once its cached copy runs out.
    if (event.type === "SessionsEnded") forgetSessionsOf(event.userId);
    return defer(
      Promise.all(
        adapters.map(async (adapter) => {
          try {
            await adapter(env, event);
          } catch (error) {
            console.warn(`delivery of ${event.type} failed`, error);
          }
        }),
      ),
    );
  };
}
