import { env } from "cloudflare:test";
import { config } from "../../worker/env";
import type { DomainEvent } from "../../worker/domain/events";
import { devMailbox } from "../../worker/dev/mailbox";

/**
 * The context a test passes when it calls a domain command directly: what the command publishes is recorded in
 * `published` (and delivered to nobody), work it defers is kept in `deferred` for the test to await.
 */
export function testContext() {
  const published: DomainEvent[] = [];
  const deferred: Promise<unknown>[] = [];
  return {
    env,
    db: env.DB,
    config: config(env),
    mailer: devMailbox(env, config(env)),
    publish: (event: DomainEvent) => void published.push(event),
    defer: (work: Promise<unknown>) => void deferred.push(work),
    published,
    deferred,
  };
}
