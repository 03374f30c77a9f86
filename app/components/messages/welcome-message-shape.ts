// Written by scripts/api-shapes.ts from the answers' schemas in shared/contracts: `npm run generate:api-shapes`.
import type { WelcomeMessageView } from "@shared/contracts/welcome-messages";
import { array, boolean, number, object, oneOf, string, type Shape } from "@shared/shape";

export const welcomeMessageShape: Shape<WelcomeMessageView> = object({
  enabled: boolean,
  text: string,
  priceCents: number,
  media: array(object({ id: number, kind: oneOf("image", "video"), url: string })),
});
