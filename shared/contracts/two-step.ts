/**
 * Two-step sign-in's answers and bodies: the challenge a sign-in answers with while its second step is missing,
 * the step itself, and Settings → Security's turning it on and off. Written by worker/domain/auth, documented by
 * worker/api, checked by the page (app/components/settings/two-step-shapes.ts, generated from these schemas). The
 * page imports types only from here.
 */
import { z } from "zod";
import { message } from "../messages";
import { passwordText } from "./accounts";
import { AuthResultSchema } from "./session";
import { singleLineText } from "./text";

const REQUIRED = message("This field is required.");
export const CODE_REQUIRED = message("Enter the code from your authenticator app, or a recovery code.");

/** The ways a second step may be given: an authenticator code, a recovery code, a code sent by email. */
export const TWO_STEP_METHODS = ["app", "recovery", "email"] as const;

const TwoStepChallengeSchema = z
  .object({
    challenge: z.string().meta({ description: "Single use, valid 10 minutes: send it back with the code" }),
    methods: z.array(z.enum(TWO_STEP_METHODS)),
  })
  .meta({ id: "TwoStepChallenge" });
export type TwoStepChallenge = z.infer<typeof TwoStepChallengeSchema>;

/** A password or magic-link sign-in: the session, or (two-step sign-in on, device not trusted) the challenge. */
export const SignInAnswerSchema = z
  .union([AuthResultSchema, z.object({ twoStep: TwoStepChallengeSchema })])
  .meta({ id: "SignInAnswer" });

const challengeText = singleLineText({ message: REQUIRED }).min(1, { message: REQUIRED }).max(64);
/** An authenticator code (6 digits), an emailed code (6 digits) or a recovery code (xxxxx-xxxxx). */
const codeText = singleLineText({ message: CODE_REQUIRED })
  .trim()
  .min(1, { message: CODE_REQUIRED })
  .max(32, { message: CODE_REQUIRED });

/** POST /login/two-step; a form's checkbox sends "on". */
export const TwoStepCodeBodySchema = z.object({
  challenge: challengeText,
  code: codeText,
  trustDevice: z
    .union([z.boolean(), z.literal("on")])
    .optional()
    .transform((value) => value === true || value === "on"),
});
export type TwoStepCodeInput = z.output<typeof TwoStepCodeBodySchema>;

/** POST /login/two-step/email: mail a code for this challenge. */
export const TwoStepChallengeBodySchema = z.object({ challenge: challengeText });

/** Turning two-step sign-in on (the first code from the app) and making new recovery codes. */
export const TwoStepConfirmBodySchema = z.object({ code: codeText });

/** Turning two-step sign-in off: the password and a code. */
export const TwoStepOffBodySchema = z.object({ password: passwordText.optional(), code: codeText.optional() });

export const TwoStepStatusSchema = z
  .object({
    enabled: z.boolean(),
    recoveryCodesLeft: z.number().int().meta({ description: "Unused recovery codes" }),
  })
  .meta({ id: "TwoStepStatus" });
export type TwoStepStatus = z.infer<typeof TwoStepStatusSchema>;

/** A new authenticator secret, not on until a code from it is confirmed. */
export const TwoStepSetupSchema = z
  .object({
    secret: z.string().meta({ description: "Base32, for typing into the app" }),
    uri: z.string().meta({ description: "The otpauth:// URI the QR code holds" }),
  })
  .meta({ id: "TwoStepSetup" });
export type TwoStepSetup = z.infer<typeof TwoStepSetupSchema>;

export const RecoveryCodesSchema = z
  .object({ recoveryCodes: z.array(z.string()).meta({ description: "Shown once; each works once" }) })
  .meta({ id: "RecoveryCodes" });
export type RecoveryCodes = z.infer<typeof RecoveryCodesSchema>;
