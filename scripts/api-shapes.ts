import type { z } from "zod";
import { MessageSchema } from "@shared/contracts/common";
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
import { MeSchema, UpdatesSchema } from "@shared/contracts/session";
import { CreatedUploadSchema, UploadedMediaSchema, UploadStatusSchema } from "@shared/contracts/uploads";

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
}

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
    case "union":
      return `anyOf(${(def.options as z.ZodType[])
        .map((option, index) => expression(option, named, `${where}|${index}`))
        .join(", ")})`;
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
      lines.push(`export const ${entry.name}: Shape<${type}> = ${expression(entry.schema, named, entry.name)};`);
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
