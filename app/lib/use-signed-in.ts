import { useEffect } from "react";
import type { FormResult } from "~/lib/forms.server";
import { clearOfflineData } from "~/lib/offline";
import { storeToken } from "~/lib/token";
import { safeLocalPath } from "@shared/local-path";

/**
 * After a sign-in form succeeds: keep the token as spec §1 says, then load `redirectTo` afresh, so that no state
 * of the signed-out page survives into the session (and no revalidation races the navigation).
 */
export function useSignedIn(result: FormResult | undefined) {
  useEffect(() => {
    if (result?.ok && result.token) {
      storeToken(result.token);
      // Whatever an earlier person left for offline use on this device goes before this one's pages load.
      const next = safeLocalPath(result.redirectTo);
      void clearOfflineData().finally(() => window.location.replace(next));
    }
  }, [result]);
}
