/** What every part of the API answers (a confirmation, the error body), and a named answer that may be null. */
import { z } from "zod";

/** A confirmation the page shows as is (a report filed, a test notification sent). */
export const MessageSchema = z.object({ message: z.string() }).meta({ id: "Message" });

/** Every 4xx and 5xx of the API. */
export const ErrorSchema = z
  .object({
    message: z.string().meta({ example: "The provided credentials are incorrect" }),
    errors: z
      .record(z.string(), z.array(z.string()))
      .meta({ description: "Each invalid field's messages, by the field's name" }),
    priceCents: z
      .number()
      .int()
      .optional()
      .meta({ description: "A charge refused because the price changed (409): the current price, in cents" }),
  })
  .meta({ id: "Error" });

/**
 * A named answer, or null. zod-to-openapi documents `Named.nullable()` by making the named component itself
 * nullable when that use is the first it meets (and otherwise as an `allOf` that JSON Schema reads as never null),
 * so every answer holding the component would let a null through
 * (https://github.com/asteasolutions/zod-to-openapi/pull/387). A union refers to the component as it is and puts
 * null beside it.
 */
export const orNull = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);
