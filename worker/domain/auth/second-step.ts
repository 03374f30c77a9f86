import type { DomainContext } from "../context";
import type { UserRow } from "../accounts/users";

/**
 * Re-checks the second step of a signed-in user before a sensitive action (turning two-step sign-in off, deleting
 * the account): with two-step sign-in on, `code` must be a current authenticator code or an unused recovery code
 * (a wrong one counts against the account's guess limit; the error is on the `code` field). With it off, nothing.
 */
export async function confirmSecondStep(
  _ctx: Pick<DomainContext, "db" | "config">,
  _user: Pick<UserRow, "id">,
  _code: string | undefined,
): Promise<void> {
  // Two-step sign-in does not exist yet: nothing to check.
}
