/**
 * A creator's watermark setting (worker/api/routes/watermarks.ts): whether the photos they upload from now on are
 * served to others with a mark of their profile address, and the mark's text.
 */
import { z } from "zod";

export const WatermarkSettingSchema = z
  .object({
    on: z.boolean().meta({ description: "Photos uploaded from now on are marked for everyone but the creator" }),
    text: z.string().meta({ description: "The mark: the profile's address, as example.com/username" }),
  })
  .meta({ id: "WatermarkSetting" });
export type WatermarkSetting = z.infer<typeof WatermarkSettingSchema>;

export const WatermarkBodySchema = z.object({ on: z.boolean() });
export type WatermarkInput = z.output<typeof WatermarkBodySchema>;
