import { useEffect } from "react";
import type { FormResult } from "./forms.server";
import { storeToken } from "./token";

/**
 * After a sign-in form succeeds: keep the token as spec §1 says, then load `redirectTo` afresh, so that no state
 * of the signed-out page survives into the session (and no revalidation races the navigation).
 */
export function useSignedIn(result: FormResult | undefined) {
  useEffect(() => {
    if (result?.ok && result.token) {
      storeToken(result.token);
      window.location.replace(result.redirectTo ?? "/home");
    }
  }, [result]);
}
