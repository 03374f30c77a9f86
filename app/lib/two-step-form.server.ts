import { data, type AppLoadContext } from "@remix-run/cloudflare";
import {
  TWO_STEP_METHODS,
  TwoStepChallengeBodySchema,
  TwoStepCodeBodySchema,
  type TwoStepChallenge,
} from "@shared/contracts/two-step";
import { completeTwoStep } from "@worker/domain/auth/complete-two-step";
import { emailSignInCode } from "@worker/domain/auth/email-sign-in-code";
import { parseOrThrow } from "@worker/domain/shared/validation";
import { asAppError, translateError } from "@worker/http/errors";
import { sessionCookie } from "@worker/http/cookies";
import { trustedDeviceCookie } from "@worker/http/trusted-device-cookie";
import { safeLocalPath } from "@shared/local-path";
import type { FormResult } from "~/lib/forms.server";

/** A sign-in form's answer; with `twoStep`, the page shows the second step for that challenge. */
export type SignInFormResult = FormResult & { twoStep?: TwoStepChallenge; redirectTo?: string };

/** The first step was right and a second is needed: the page asks for the code. */
export const twoStepAsked = (twoStep: TwoStepChallenge, redirectTo: string): SignInFormResult => ({
  ok: true,
  twoStep,
  redirectTo,
});

/**
 * The second step's form (/login's intents "two-step-code" and "two-step-email"): a right code signs in as the
 * first step would have (and, when asked, trusts the device); anything refused comes back with the challenge, so
 * that the page shows the step again with the error, without JavaScript too. An expired challenge (403) does
 * not: the person starts again.
 */
export async function twoStepFormAction(context: AppLoadContext, fields: Record<string, string>, intent: string) {
  const { t } = context.domain;
  const redirectTo = safeLocalPath(fields.redirectTo);
  const step: TwoStepChallenge = { challenge: fields.challenge ?? "", methods: [...TWO_STEP_METHODS] };
  try {
    if (intent === "two-step-email") {
      await emailSignInCode(context.domain, parseOrThrow(TwoStepChallengeBodySchema, fields).challenge);
      return data<SignInFormResult>({ ...twoStepAsked(step, redirectTo), message: t("We have emailed you a code.") });
    }
    const { token, trustedDevice } = await completeTwoStep(context.domain, parseOrThrow(TwoStepCodeBodySchema, fields));
    const headers = new Headers({ "Cache-Control": "no-store" });
    headers.append("Set-Cookie", sessionCookie(token));
    if (trustedDevice) headers.append("Set-Cookie", trustedDeviceCookie(trustedDevice));
    return data<SignInFormResult>({ ok: true, token, redirectTo }, { headers });
  } catch (error) {
    const appError = asAppError(error);
    if (!appError) throw error;
    const headers: HeadersInit = appError.retryAfterSeconds
      ? { "Retry-After": String(appError.retryAfterSeconds) }
      : {};
    const again = appError.status === 403 ? {} : { twoStep: step, redirectTo };
    return data<SignInFormResult>(
      { ok: false, ...translateError(t, appError), ...again },
      { status: appError.status, headers },
    );
  }
}
