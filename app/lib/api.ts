import { clearOfflineData } from "./offline";
import { forgetToken, readToken } from "./token";

export interface ApiErrorBody {
  message: string;
  errors: Record<string, string[]>;
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
}

/**
 * The client of spec §7: base /api, JSON headers, the stored token read once when the client is created
 * (a token stored later applies only to a client created afterwards), the CSRF token, no timeout.
 * 401 forgets the token and reloads at /login; 500 is logged and alerted; the rest goes to the caller.
 */
export function createApiClient({ csrfToken, serverErrorText }: ApiClientOptions) {
  const token = readToken();
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    Accept: "application/json",
    "Access-Control-Allow-Origin": "*",
    Authorization: token ? `Bearer ${token}` : "",
  };
  if (csrfToken) headers["X-CSRF-Token"] = csrfToken;

  async function request<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
    const response = await fetch(`/api${path}`, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.ok) return (await response.json()) as T;
    const payload = (await response.json().catch(() => ({ message: response.statusText, errors: {} }))) as ApiErrorBody;
    if (response.status === 401) {
      forgetToken();
      void clearOfflineData().finally(() => window.location.assign("/login"));
    } else if (response.status >= 500) {
      console.error(`API ${method} ${path} failed`, response.status, payload);
      if (!options.quiet) window.alert(serverErrorText());
    }
    throw new ApiError(response.status, payload);
  }

  return {
    get: <T>(path: string, options?: RequestOptions) => request<T>("GET", path, undefined, options),
    post: <T>(path: string, body?: unknown) => request<T>("POST", path, body ?? {}),
    delete: <T>(path: string) => request<T>("DELETE", path),
  };
}
