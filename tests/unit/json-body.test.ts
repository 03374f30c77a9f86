import { describe, expect, it } from "vitest";
import { z } from "zod";
import { jsonBody } from "../../worker/api/schemas";

describe("jsonBody", () => {
  const body = jsonBody(
    z.object({
      note: z.string().optional().meta({ description: "A note for the creator" }),
      place: z.object({ x: z.number() }).meta({ id: "Place", description: "Where it goes" }),
    }),
  );
  const document = z.toJSONSchema(body.content["application/json"].schema, { io: "input" }) as {
    additionalProperties: unknown;
    properties: Record<string, { description?: string; additionalProperties?: unknown }>;
  };

  it("refuses unknown fields at every level", () => {
    expect(document.additionalProperties).toBe(false);
    expect(document.properties.place!.additionalProperties).toBe(false);
    expect(body.content["application/json"].schema.safeParse({ place: { x: 1, y: 2 } }).success).toBe(false);
  });

  it("keeps the descriptions the document shows", () => {
    expect(document.properties.note!.description).toBe("A note for the creator");
    expect(document.properties.place!.description).toBe("Where it goes");
  });
});
