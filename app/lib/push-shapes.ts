// Written by scripts/api-shapes.ts from the answers' schemas in shared/contracts: `npm run generate:api-shapes`.
import type { PushDevice, PushPreferences, PushSettings, PushTestSent } from "@shared/contracts/push";
import { array, boolean, nullable, number, object, string, type Shape } from "@shared/shape";

export const pushPreferencesShape: Shape<PushPreferences> = object({
  messages: boolean,
  posts: boolean,
  earnings: boolean,
  subscriptions: boolean,
  interactions: boolean,
  live: boolean,
});

export const pushDeviceShape: Shape<PushDevice> = object({
  id: number,
  label: string,
  endpoint: string,
  language: string,
  createdAt: string,
  lastSentAt: nullable(string),
});

export const pushSettingsShape: Shape<PushSettings> = object({
  enabled: boolean,
  publicKey: nullable(string),
  preferences: pushPreferencesShape,
  devices: array(pushDeviceShape),
});

export const pushTestSentShape: Shape<PushTestSent> = object({ message: string, devices: number });
