import type { z } from "zod";
import { MessageSchema } from "@shared/contracts/common";
import {
  EarningsOverviewSchema,
  PaymentPageSchema,
  PaymentResultSchema,
  PaymentSchema,
  PayoutPageSchema,
} from "@shared/contracts/money";
import {
  ChatMediaPageSchema,
  ChatMediaSchema,
  ChatMessageSchema,
  ChatServerFrameSchema,
  ConversationPageSchema,
  ConversationSchema,
  MassMessageAudienceCountSchema,
  MassMessageListSchema,
  MassMessageSchema,
  MessagePageSchema,
  PaidMessageSchema,
  SentMessageSchema,
} from "@shared/contracts/messages";
import { FanListsSchema } from "@shared/contracts/fan-lists";
import { FanPageSchema } from "@shared/contracts/subscriptions";
import { FanMembershipsSchema, ListedFanPageSchema } from "@shared/contracts/fan-lists";
import { CreatorOffersSchema, GiftAnswerSchema, RetentionOfferAnswerSchema } from "@shared/contracts/offers";
import { LiveMediaSchema, LiveStreamSchema } from "@shared/contracts/live";
import { NotificationPageSchema, NotificationSchema } from "@shared/contracts/notifications";
import {
  PushDeviceSchema,
  PushPreferencesSchema,
  PushSettingsSchema,
  PushTestSentSchema,
} from "@shared/contracts/push";
import {
  HighlightTitlesSchema,
  StoryKeptSchema,
  StoryLikedSchema,
  StoryReelSchema,
  StorySchema,
  StoryViewersPageSchema,
} from "@shared/contracts/stories";
import {
  BookmarkStateSchema,
  CommentAnswerSchema,
  CommentPageSchema,
  CommentSchema,
  LikeStateSchema,
  MediaSchema,
  PostListSchema,
  PostPageSchema,
  PostSchema,
  ProcessingPostPageSchema,
} from "@shared/contracts/posts";
import { FollowStateSchema, SuggestedProfilesSchema, UserSearchResultsSchema } from "@shared/contracts/profiles";
import { AuthResultSchema, MeSchema, UpdatesSchema } from "@shared/contracts/session";
import { AuthenticationOptionsSchema, PasskeySchema, RegistrationOptionsSchema } from "@shared/contracts/passkeys";
import { RecoveryCodesSchema, TwoStepSetupSchema } from "@shared/contracts/two-step";
import { WelcomeMessageSchema } from "@shared/contracts/welcome-messages";
import { CreatedUploadSchema, UploadedMediaSchema, UploadStatusSchema } from "@shared/contracts/uploads";
import { VaultAlbumListSchema, VaultAlbumSchema, VaultPageSchema, VaultUsesSchema } from "@shared/contracts/vault";

/**
 * The page's checks of the API's answers (app/lib/api-shapes.ts, and files of their own for answers that only some
 * chunks read), written from the answers' zod schemas in shared/contracts. zod itself would cost the first /home
 * more bytes than its budget leaves, so the page gets the same checks as the small combinators of
 * shared/shape.ts. A check another file exports is imported from it rather than written again. A unit test (tests/unit/api-shapes.test.ts) fails while a file differs from what this writes;
 * `npm run generate:api-shapes` writes them.
 */

interface Entry {
  /** The exported check's name. */
  name: string;
  schema: z.ZodType;
  /** The type it checks, in the page's words (an import type from shared/contracts). */
  type: { name: string; from: string; expression?: string };
  /** Also export the object's fields, for a screen whose answer adds its own to them. */
  fields?: string;
  /** Only the file's other checks use it: not exported. */
  local?: boolean;
}

const MESSAGES = "@shared/contracts/messages";
const VAULT = "@shared/contracts/vault";

/** Each generated file (from the repository's root) and the checks it exports. */
export const GENERATED: Record<string, Entry[]> = {
  "app/lib/api-shapes.ts": [
    { name: "currentUserShape", schema: MeSchema, type: { name: "Me", from: "@shared/contracts/session" } },
    {
      name: "updatesAnswerShape",
      schema: UpdatesSchema,
      type: { name: "Updates", from: "@shared/contracts/session", expression: "{ updates: Updates }" },
    },
    {
      name: "scaledImagesShape",
      schema: MediaSchema.shape.scaled,
      type: { name: "ScaledImage", from: "@shared/contracts/posts", expression: "ScaledImage[]" },
      local: true,
    },
    {
      name: "postShape",
      schema: PostSchema,
      type: { name: "PostView", from: "@shared/contracts/posts" },
      fields: "postFields",
    },
    {
      name: "postPageShape",
      schema: PostPageSchema,
      type: {
        name: "PostView",
        from: "@shared/contracts/posts",
        expression: "{ posts: PostView[]; nextCursor: string | null }",
      },
    },
    {
      name: "messageAnswerShape",
      schema: MessageSchema,
      type: { name: "", from: "", expression: "{ message: string }" },
    },
  ],
  // /home's new posts (GET /timeline/new) only.
  "app/lib/new-posts-shape.ts": [
    { name: "postListShape", schema: PostListSchema, type: { name: "PostList", from: "@shared/contracts/posts" } },
  ],
  // The comments list and the outbox (which the first /home loads: app-core in vite.config.ts).
  "app/lib/comment-shape.ts": [
    { name: "commentShape", schema: CommentSchema, type: { name: "CommentView", from: "@shared/contracts/posts" } },
    {
      name: "commentAnswerShape",
      schema: CommentAnswerSchema,
      type: { name: "CommentView", from: "@shared/contracts/posts", expression: "{ comment: CommentView }" },
    },
    { name: "likeStateShape", schema: LikeStateSchema, type: { name: "LikeState", from: "@shared/contracts/posts" } },
    {
      name: "bookmarkStateShape",
      schema: BookmarkStateSchema,
      type: { name: "", from: "", expression: "{ bookmarked: boolean }" },
    },
  ],
  // The comments list only.
  "app/components/posts/comment-page-shape.ts": [
    {
      name: "commentPageShape",
      schema: CommentPageSchema,
      type: { name: "CommentPage", from: "@shared/contracts/posts" },
    },
  ],
  // The right column's suggestions and user search (the shell's chunk).
  "app/components/shell/shell-shapes.ts": [
    {
      name: "suggestedProfilesShape",
      schema: SuggestedProfilesSchema,
      type: { name: "SuggestedProfiles", from: "@shared/contracts/profiles" },
    },
    {
      name: "followStateShape",
      schema: FollowStateSchema,
      type: { name: "FollowState", from: "@shared/contracts/profiles" },
    },
    {
      name: "userSearchShape",
      schema: UserSearchResultsSchema,
      type: { name: "UserSearchResults", from: "@shared/contracts/profiles" },
    },
  ],
  // /processing only.
  "app/components/posts/processing-shape.ts": [
    {
      name: "processingPostPageShape",
      schema: ProcessingPostPageSchema,
      type: { name: "ProcessingPostPage", from: "@shared/contracts/posts" },
    },
  ],
  // The creator's welcome message settings (the mass message view).
  "app/components/messages/welcome-message-shape.ts": [
    {
      name: "welcomeMessageShape",
      schema: WelcomeMessageSchema,
      type: { name: "WelcomeMessageView", from: "@shared/contracts/welcome-messages" },
    },
  ],
  // The uploads of the composers, the image pickers and the creator request.
  "app/lib/upload-shapes.ts": [
    {
      name: "createdUploadShape",
      schema: CreatedUploadSchema,
      type: { name: "CreatedUpload", from: "@shared/contracts/uploads" },
    },
    {
      name: "uploadStatusShape",
      schema: UploadStatusSchema,
      type: { name: "UploadStatus", from: "@shared/contracts/uploads" },
    },
    {
      name: "uploadedMediaShape",
      schema: UploadedMediaSchema,
      type: { name: "UploadedMedia", from: "@shared/contracts/uploads" },
    },
  ],
  // The vault's page and its picker (a chunk of its own).
  "app/components/vault/vault-shapes.ts": [
    { name: "vaultPageShape", schema: VaultPageSchema, type: { name: "VaultPage", from: VAULT } },
    { name: "vaultAlbumShape", schema: VaultAlbumSchema, type: { name: "VaultAlbum", from: VAULT } },
    {
      name: "vaultAlbumListShape",
      schema: VaultAlbumListSchema,
      type: { name: "VaultAlbum", from: VAULT, expression: "{ albums: VaultAlbum[] }" },
    },
    {
      name: "vaultUsesShape",
      schema: VaultUsesSchema,
      type: { name: "VaultUse", from: VAULT, expression: "{ uses: VaultUse[] }" },
    },
  ],
  // The wallet's history and its copy for offline reading.
  "app/components/wallet/wallet-shapes.ts": [
    { name: "paymentShape", schema: PaymentSchema, type: { name: "PaymentView", from: "@shared/contracts/money" } },
    {
      name: "paymentPageShape",
      schema: PaymentPageSchema,
      type: { name: "PaymentPage", from: "@shared/contracts/money" },
    },
  ],
  // The tip dialog (its own chunk): a tip's charge, and in a conversation the message that carries it.
  "app/components/money/tip-shapes.ts": [
    {
      name: "paymentResultShape",
      schema: PaymentResultSchema,
      type: { name: "PaymentResult", from: "@shared/contracts/money" },
    },
    { name: "paidMessageShape", schema: PaidMessageSchema, type: { name: "PaidMessage", from: MESSAGES } },
  ],
  // The dashboard's tabs: earnings, payout history, fans, promotions.
  "app/components/dashboard/dashboard-shapes.ts": [
    {
      name: "earningsOverviewShape",
      schema: EarningsOverviewSchema,
      type: { name: "EarningsOverview", from: "@shared/contracts/money" },
    },
    {
      name: "payoutPageShape",
      schema: PayoutPageSchema,
      type: { name: "PayoutPage", from: "@shared/contracts/money" },
    },
    { name: "fanPageShape", schema: FanPageSchema, type: { name: "FanPage", from: "@shared/contracts/subscriptions" } },
    {
      name: "creatorOffersShape",
      schema: CreatorOffersSchema,
      type: { name: "CreatorOffers", from: "@shared/contracts/offers" },
    },
  ],
  // The chat's screens, the profile's Message button and the outbox's sent message: not in the first /home.
  "app/components/messages/chat-shapes.ts": [
    { name: "chatMediaShape", schema: ChatMediaSchema, type: { name: "ChatMediaView", from: MESSAGES }, local: true },
    { name: "messageShape", schema: ChatMessageSchema, type: { name: "MessageView", from: MESSAGES } },
    { name: "conversationShape", schema: ConversationSchema, type: { name: "ConversationView", from: MESSAGES } },
    {
      name: "conversationPageShape",
      schema: ConversationPageSchema,
      type: { name: "ConversationPage", from: MESSAGES },
    },
    { name: "messagePageShape", schema: MessagePageSchema, type: { name: "MessagePage", from: MESSAGES } },
    {
      name: "sentShape",
      schema: SentMessageSchema,
      type: { name: "MessageView", from: MESSAGES, expression: "{ message: MessageView; replayed: boolean }" },
    },
    {
      name: "chatMediaPageShape",
      schema: ChatMediaPageSchema,
      type: {
        name: "ChatMediaItem",
        from: MESSAGES,
        expression: "{ items: ChatMediaItem[]; nextBefore: number | null }",
      },
    },
    { name: "massMessageShape", schema: MassMessageSchema, type: { name: "MassMessageView", from: MESSAGES } },
    {
      name: "massMessageListShape",
      schema: MassMessageListSchema,
      type: { name: "MassMessageView", from: MESSAGES, expression: "{ massMessages: MassMessageView[] }" },
    },
    {
      name: "massAudienceCountShape",
      schema: MassMessageAudienceCountSchema,
      type: { name: "MassMessageAudienceCount", from: MESSAGES },
    },
    // The mass message panel's list chooser reads GET /api/lists.
    {
      name: "massListChoicesShape",
      schema: FanListsSchema,
      type: { name: "FanLists", from: "@shared/contracts/fan-lists" },
    },
    { name: "chatServerFrameShape", schema: ChatServerFrameSchema, type: { name: "ChatServerFrame", from: MESSAGES } },
  ],
  // The notifications screen (and its offline copy).
  "app/lib/notification-shape.ts": [
    {
      name: "notificationShape",
      schema: NotificationSchema,
      type: { name: "NotificationView", from: "@shared/contracts/notifications" },
    },
    {
      name: "notificationPageShape",
      schema: NotificationPageSchema,
      type: { name: "NotificationPage", from: "@shared/contracts/notifications" },
    },
  ],
  // Settings → Security's two-step sign-in.
  "app/components/settings/two-step-shapes.ts": [
    {
      name: "twoStepSetupShape",
      schema: TwoStepSetupSchema,
      type: { name: "TwoStepSetup", from: "@shared/contracts/two-step" },
    },
    {
      name: "recoveryCodesShape",
      schema: RecoveryCodesSchema,
      type: { name: "RecoveryCodes", from: "@shared/contracts/two-step" },
    },
  ],
  // Settings → Notifications.
  "app/lib/push-shapes.ts": [
    {
      name: "pushPreferencesShape",
      schema: PushPreferencesSchema,
      type: { name: "PushPreferences", from: "@shared/contracts/push" },
    },
    { name: "pushDeviceShape", schema: PushDeviceSchema, type: { name: "PushDevice", from: "@shared/contracts/push" } },
    {
      name: "pushSettingsShape",
      schema: PushSettingsSchema,
      type: { name: "PushSettings", from: "@shared/contracts/push" },
    },
    {
      name: "pushTestSentShape",
      schema: PushTestSentSchema,
      type: { name: "PushTestSent", from: "@shared/contracts/push" },
    },
  ],
  // The stories viewer and composer.
  "app/components/stories/story-shapes.ts": [
    { name: "storyShape", schema: StorySchema, type: { name: "StoryView", from: "@shared/contracts/stories" } },
    { name: "reelShape", schema: StoryReelSchema, type: { name: "StoryReel", from: "@shared/contracts/stories" } },
    {
      name: "viewersShape",
      schema: StoryViewersPageSchema,
      type: { name: "StoryViewersPage", from: "@shared/contracts/stories" },
    },
    {
      name: "highlightTitlesShape",
      schema: HighlightTitlesSchema,
      type: { name: "HighlightTitles", from: "@shared/contracts/stories" },
    },
    { name: "keptShape", schema: StoryKeptSchema, type: { name: "StoryKept", from: "@shared/contracts/stories" } },
    { name: "likedShape", schema: StoryLikedSchema, type: { name: "StoryLiked", from: "@shared/contracts/stories" } },
  ],
  // A subscriber's dialogs on a profile: the retention offer shown on cancelling, a gift made.
  "app/components/profile/offer-shapes.ts": [
    {
      name: "retentionOfferAnswerShape",
      schema: RetentionOfferAnswerSchema,
      type: {
        name: "RetentionOffer",
        from: "@shared/contracts/offers",
        expression: "{ offer: RetentionOffer | null }",
      },
    },
    {
      name: "giftAnswerShape",
      schema: GiftAnswerSchema,
      type: { name: "GiftAnswer", from: "@shared/contracts/offers" },
    },
  ],
  // Passkeys' ceremonies (Settings → Security, /login): loaded with the WebAuthn library, when a ceremony starts.
  "app/lib/passkey-shapes.ts": [
    {
      name: "registrationOptionsShape",
      schema: RegistrationOptionsSchema,
      type: { name: "RegistrationOptions", from: "@shared/contracts/passkeys" },
    },
    {
      name: "authenticationOptionsShape",
      schema: AuthenticationOptionsSchema,
      type: { name: "AuthenticationOptions", from: "@shared/contracts/passkeys" },
    },
    { name: "passkeyShape", schema: PasskeySchema, type: { name: "Passkey", from: "@shared/contracts/passkeys" } },
    {
      name: "authResultShape",
      schema: AuthResultSchema,
      type: { name: "Me", from: "@shared/contracts/session", expression: "{ token: string; user: Me }" },
    },
  ],
  // The live studio.
  "app/components/live/live-shapes.ts": [
    {
      name: "liveStreamShape",
      schema: LiveStreamSchema,
      type: { name: "LiveStreamView", from: "@shared/contracts/live" },
    },
    {
      name: "liveMediaShape",
      schema: LiveMediaSchema,
      type: { name: "LiveMediaView", from: "@shared/contracts/live" },
    },
  ],
  // A list's page and the "Add to list" menu.
  "app/components/fan-lists/fan-list-shapes.ts": [
    {
      name: "listedFanPageShape",
      schema: ListedFanPageSchema,
      type: { name: "ListedFanPage", from: "@shared/contracts/fan-lists" },
    },
    {
      name: "fanMembershipsShape",
      schema: FanMembershipsSchema,
      type: { name: "FanMemberships", from: "@shared/contracts/fan-lists" },
    },
  ],
};

/** How the page imports a generated file: app/lib/api-shapes.ts is ~/lib/api-shapes. */
const moduleOf = (file: string) => file.replace(/^app\//, "~/").replace(/\.ts$/, "");

type Def = { type: string } & Record<string, unknown>;
const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;

/** The combinators' expression checking what `schema` accepts; `named` maps an already written schema to its check. */
export function expression(schema: z.ZodType, named = new Map<z.ZodType, string>(), where = "answer"): string {
  const known = named.get(schema);
  if (known) return known;
  const def = defOf(schema);
  switch (def.type) {
    case "string":
    case "number":
    case "boolean":
      return def.type;
    case "nullable":
      return `nullable(${expression(def.innerType as z.ZodType, named, where)})`;
    case "optional":
      return `optional(${expression(def.innerType as z.ZodType, named, where)})`;
    case "literal":
      return (def.values as unknown[]).length === 1
        ? `literal(${JSON.stringify((def.values as unknown[])[0])})`
        : `anyOf(${(def.values as unknown[]).map((value) => `literal(${JSON.stringify(value)})`).join(", ")})`;
    case "null":
      // Only as orNull's other half (shared/contracts/common.ts): a named answer or null.
      throw new Error(`${where}: null only as the other half of orNull`);
    case "union": {
      const options = def.options as z.ZodType[];
      const other = options.filter((option) => defOf(option).type !== "null");
      if (options.length === 2 && other.length === 1) return `nullable(${expression(other[0]!, named, where)})`;
      return `anyOf(${options.map((option, index) => expression(option, named, `${where}|${index}`)).join(", ")})`;
    }
    case "default":
      return `orDefault(${expression(def.innerType as z.ZodType, named, where)}, () => ${JSON.stringify(def.defaultValue)})`;
    case "array":
      return `array(${expression(def.element as z.ZodType, named, `${where}[]`)})`;
    case "enum":
      return `oneOf(${Object.values(def.entries as Record<string, string>)
        .map((value) => JSON.stringify(value))
        .join(", ")})`;
    case "record":
      return `record(${expression(def.valueType as z.ZodType, named, `${where}{}`)})`;
    case "object":
      return `object(${fieldsOf(schema, named, where)})`;
    default:
      // A kind the combinators cannot check would be let through unchecked: refuse it instead.
      throw new Error(`${where}: no check for a zod ${def.type}`);
  }
}

/** The objects whose fields are exported (`fields`), by schema: an extension of one (`.extend`) spreads them. */
const exportedFields = new Map(
  Object.values(GENERATED)
    .flat()
    .flatMap((entry) => (entry.fields ? [[entry.schema, entry.fields] as const] : [])),
);

function fieldsOf(schema: z.ZodType, named: Map<z.ZodType, string>, where: string): string {
  const shape = defOf(schema).shape as Record<string, z.ZodType>;
  const base = [...exportedFields].find(
    ([other]) =>
      other !== schema &&
      named.has(other) &&
      Object.entries(defOf(other).shape as Record<string, z.ZodType>).every(([key, field]) => shape[key] === field),
  );
  const inherited = base ? Object.keys(defOf(base[0]).shape as object) : [];
  return `{ ${[
    ...(base ? [`...${base[1]}`] : []),
    ...Object.entries(shape)
      .filter(([key]) => !inherited.includes(key))
      .map(([key, field]) => `${key}: ${expression(field, named, `${where}.${key}`)}`),
  ].join(", ")} }`;
}

/** The text of one generated file. */
export function apiShapesSource(file: string): string {
  // The checks other files export, imported where this file's schemas contain their schemas.
  const imported = new Map<string, string>();
  for (const [other, entries] of Object.entries(GENERATED))
    if (other !== file)
      for (const entry of entries)
        for (const name of [entry.name, entry.fields ?? []].flat()) imported.set(name, moduleOf(other));
  const named = new Map<z.ZodType, string>(
    Object.entries(GENERATED).flatMap(([other, entries]) =>
      other === file ? [] : entries.map((entry) => [entry.schema, entry.name] as const),
    ),
  );
  const combinators = new Set<string>();
  const types = new Map<string, Set<string>>();
  const lines: string[] = [];
  for (const entry of GENERATED[file]!) {
    const type = entry.type.expression ?? entry.type.name;
    if (entry.type.name) types.set(entry.type.from, (types.get(entry.type.from) ?? new Set()).add(entry.type.name));
    if (entry.fields) {
      lines.push(`export const ${entry.fields} = ${fieldsOf(entry.schema, named, entry.name)};`);
      lines.push(`export const ${entry.name}: Shape<${type}> = object(${entry.fields});`);
    } else {
      const exported = entry.local ? "" : "export ";
      lines.push(`${exported}const ${entry.name}: Shape<${type}> = ${expression(entry.schema, named, entry.name)};`);
    }
    named.set(entry.schema, entry.name);
  }
  const body = lines.join("\n\n");
  for (const combinator of [
    "anyOf",
    "array",
    "boolean",
    "nullable",
    "number",
    "literal",
    "object",
    "oneOf",
    "optional",
    "orDefault",
    "record",
    "string",
  ]) {
    if (new RegExp(`\\b${combinator}\\b`).test(body.replace(/Shape<[^\n]*?> =/g, ""))) combinators.add(combinator);
  }
  const typeImports = [...types].map(
    ([from, names]) => `import type { ${[...names].sort().join(", ")} } from "${from}";`,
  );
  const checks = new Map<string, string[]>();
  for (const [name, from] of imported)
    if (new RegExp(`\\b${name}\\b`).test(body)) checks.set(from, [...(checks.get(from) ?? []), name]);
  const checkImports = [...checks].map(([from, names]) => `import { ${names.sort().join(", ")} } from "${from}";`);
  return [
    "// Written by scripts/api-shapes.ts from the answers' schemas in shared/contracts: `npm run generate:api-shapes`.",
    ...typeImports,
    ...checkImports,
    `import { ${[...combinators].join(", ")}, type Shape } from "@shared/shape";`,
    "",
    body,
    "",
  ].join("\n");
}
