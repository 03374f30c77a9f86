// Written by scripts/api-shapes.ts from the answers' schemas in shared/contracts: `npm run generate:api-shapes`.
import type { RecoveryCodes, TwoStepSetup, TwoStepStatus } from "@shared/contracts/two-step";
import { array, boolean, number, object, string, type Shape } from "@shared/shape";

export const twoStepStatusShape: Shape<TwoStepStatus> = object({ enabled: boolean, recoveryCodesLeft: number });

export const twoStepSetupShape: Shape<TwoStepSetup> = object({ secret: string, uri: string });

export const recoveryCodesShape: Shape<RecoveryCodes> = object({ recoveryCodes: array(string) });
