import type { Result, Router } from "hono/router";
import { SmartRouter } from "hono/router/smart-router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { TrieRouter } from "hono/router/trie-router";
import { setBounded } from "../domain/shared/bounded-map";

/** How many (method, path) answers an isolate keeps: the hot paths, and room for the ids in others. */
export const MEMO_CAPACITY = 2_000;

/**
 * Hono's router, with the answers it gave kept per method and path. Every request asks the router which
 * middleware and handlers apply, and this app's routes make Hono's SmartRouter settle on its TrieRouter (its
 * RegExpRouter refuses a parameter and a literal at the same place, such as `/posts/:id` beside
 * `/posts/scheduled`), which walks the tree anew on each request: about 5% of a `GET /api/updates` under load in a
 * CPU profile (docs/decisions/per-request-work.md). The answer depends on the method and path alone once the routes are in
 * (they are all added when the app is built; adding one drops what was kept), and Hono only reads it (the
 * handlers and each one's parameters), so requests for the same path share one. Paths come from clients, so the
 * memo is bounded: past `capacity`, the oldest answer goes.
 */
export class MemoRouter<T> implements Router<T> {
  readonly name: string;
  readonly #inner: Router<T>;
  readonly #answers = new Map<string, Result<T>>();
  readonly #capacity: number;

  constructor(inner: Router<T> = new SmartRouter<T>({ routers: [new RegExpRouter<T>(), new TrieRouter<T>()] }), capacity = MEMO_CAPACITY) {
    this.#inner = inner;
    this.#capacity = capacity;
    this.name = `memo(${inner.name})`;
  }

  add(method: string, path: string, handler: T): void {
    this.#answers.clear();
    this.#inner.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    const key = `${method} ${path}`;
    let answer = this.#answers.get(key);
    if (answer === undefined) {
      answer = this.#inner.match(method, path);
      setBounded(this.#answers, key, answer, this.#capacity);
    }
    return answer;
  }

  /** How many answers are kept (for the tests). */
  get size(): number {
    return this.#answers.size;
  }
}
