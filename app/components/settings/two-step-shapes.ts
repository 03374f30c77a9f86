// Written by scripts/api-shapes.ts from the answers' schemas in shared/contracts: `npm run generate:api-shapes`.
import type { RecoveryCodes, TwoStepSetup } from "@shared/contracts/two-step";
import { array, object, string, type Shape } from "@shared/shape";

export const twoStepSetupShape: Shape<TwoStepSetup> = object({ secret: string, uri: string });

export const recoveryCodesShape: Shape<RecoveryCodes> = object({ recoveryCodes: array(string) });
