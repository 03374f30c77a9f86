import { useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import type { FormResult } from "./forms.server";
import { storeToken } from "./token";

/** After a sign-in form succeeds: keep the token as spec §1 says, then go where the form said. */
export function useSignedIn(result: FormResult | undefined) {
  const navigate = useNavigate();
  useEffect(() => {
    if (result?.ok && result.token) {
      storeToken(result.token);
      navigate(result.redirectTo ?? "/home", { replace: true });
    }
  }, [result, navigate]);
}
