import { networkAnswered } from "~/lib/network-answers";
import { leaveForLogin } from "~/lib/offline";
import type { Shape } from "@shared/shape";
import { readToken } from "~/lib/token";

export interface ApiErrorBody {
  message: string;
  errors: Record<string, string[]>;
  /** A charge refused because the price shown is no longer the price (409): the current one, in cents. */
  priceCents?: number;
}

/** A non-2xx answer other than 401 and 500, passed to the caller unchanged (spec §8). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.message);
    this.name = "ApiError";
  }
}

export interface ApiClientOptions {
  csrfToken: string | null;
  /** What to show for a 500, translated at the time. */
  serverErrorText: () => string;
}

export type ApiClient = ReturnType<typeof createApiClient>;

export interface RequestOptions {
  /**
   * Spec §8: failures of /me, /updates and /searchUsers are only logged, and suggested profiles show their own
   * alert; a quiet call skips the "server error." alert (401 still signs out).
   */
  quiet?: boolean;
  /** Gives the request up after this long (a DOMException "TimeoutError"): for calls that may be sent again. */
  timeoutMs?: number;
  /** Gives the request up when it aborts (instead of timeoutMs: the caller keeps its own time): for calls that may be sent again. */
  signal?: AbortSignal;
}

/**
 * An answer that is not what the contract says (a 2xx whose JSON does not fit the caller's shape, or no JSON at
 * all). It is the server failing, so it is handled as a 500 (logged, alerted unless quiet) and reaches the
 * caller as an ApiError whose message is that same translated text, never as a crash inside a component.
 */
export class MalformedAnswerError extends ApiError {
  override name = "MalformedAnswerError";
}

/** The current price a charge was refused for (its price had changed since it was shown), or null. */
export const changedPriceOf = (error: unknown): number | null =>
  error instanceof ApiError && error.status === 409 && typeof error.body.priceCents === "number"
    ? error.body.priceCents
    : null;

/** An error answer's body when it has the documented shape (`wellFormed`); otherwise the status text stands in. */
function errorBodyOf(payload: unknown, statusText: string): { body: ApiErrorBody; wellFormed: boolean } {
  const body = payload as Partial<ApiErrorBody> | null;
  const errors = body?.errors;
  const wellFormed =
    typeof body?.message === "string" &&
    typeof errors === "object" &&
    errors !== null &&
    Object.values(errors).every((texts) => Array.isArray(texts) && texts.every((text) => typeof text === "string"));
  return {
    body: wellFormed
      ? (body as ApiErrorBody)
      : { message: typeof body?.message === "string" ? body.message : statusText, errors: {} },
    wellFormed,
  };
}

/** The answer of a call that reads none: nothing, or JSON (a 2xx page of HTML is a captive portal's, not the API's). */
async function unreadAnswer(response: Response): Promise<undefined> {
  const text = await response.text();
  if (text.trim() !== "") JSON.parse(text);
  return undefined;
}

/**
 * The client of spec §7: base /api, JSON headers, the stored token read once when the client is created
 * (a token stored later applies only to a client created afterwards), the CSRF token, no timeout unless the call names one.
 * 401 forgets the token and reloads at /login; 500 is logged and alerted; the rest goes to the caller.
 * A call whose answer the page reads names the answer's shape (./api-shapes.ts, or next to the caller), and gets
 * only a checked answer back; a call whose answer is not read resolves with nothing.
 */
export function createApiClient({ csrfToken, serverErrorText }: ApiClientOptions) {
  const token = readToken();
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    Accept: "application/json",
    Authorization: token ? `Bearer ${token}` : "",
  };
  if (csrfToken) headers["X-CSRF-Token"] = csrfToken;

  function serverFailed(method: string, path: string, details: unknown[], options: RequestOptions) {
    console.error(`API ${method} ${path} failed`, ...details);
    if (!options.quiet) window.alert(serverErrorText());
  }

  async function request<T>(
    method: string,
    path: string,
    body: unknown,
    expect: Shape<T> | undefined,
    options: RequestOptions = {},
  ): Promise<T | undefined> {
    const response = await fetch(`/api${path}`, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal ?? (options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs)),
    });
    // The server answered (a 5xx may be a proxy that cannot reach it): the network is back, if it was gone. Said only
    // for an answer that is the API's (its body read and of its shape: a captive portal's or a proxy's page is none),
    // with the request's signal: the outbox knows its own answers (outbox-sender.ts).
    const answered = () => response.status < 500 && networkAnswered(options.signal);
    if (response.ok) {
      let value: T | undefined;
      try {
        value = expect ? expect(await response.json()) : await unreadAnswer(response);
      } catch (error) {
        serverFailed(method, path, [response.status, error], options);
        throw new MalformedAnswerError(response.status, { message: serverErrorText(), errors: {} });
      }
      answered();
      return value;
    }
    const { body: payload, wellFormed } = errorBodyOf(await response.json().catch(() => null), response.statusText);
    if (wellFormed) answered();
    if (response.status === 401) {
      void leaveForLogin();
    } else if (response.status >= 500) {
      serverFailed(method, path, [response.status, payload], options);
    }
    throw new ApiError(response.status, payload);
  }

  function post(path: string, body?: unknown): Promise<void>;
  function post(path: string, body: unknown, expect: undefined, options: RequestOptions): Promise<void>;
  function post<T>(path: string, body: unknown, expect: Shape<T>, options?: RequestOptions): Promise<T>;
  function post<T>(path: string, body: unknown = {}, expect?: Shape<T>, options?: RequestOptions) {
    return request("POST", path, body, expect, options);
  }

  return {
    get: <T>(path: string, expect: Shape<T>, options?: RequestOptions) =>
      request("GET", path, undefined, expect, options) as Promise<T>,
    post,
    patch: <T>(path: string, body: unknown, expect: Shape<T>) => request("PATCH", path, body, expect) as Promise<T>,
    put: <T>(path: string, body: unknown, expect: Shape<T>) => request("PUT", path, body, expect) as Promise<T>,
    delete: (path: string, options?: RequestOptions) =>
      request("DELETE", path, undefined, undefined, options) as Promise<void>,
  };
}
