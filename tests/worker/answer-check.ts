import { z } from "zod";
import { api } from "../../worker/api/app";

/**
 * Every JSON answer of /api/* that the worker tier receives is checked against the API's own OpenAPI document
 * (GET /api/openapi.json): the schema of its path, method and status. A field the answer has and the document
 * lacks fails as much as one the document promises and the answer lacks, so neither can drift from the other.
 * An error status a route does not list must still be the documented Error body.
 */

type JsonSchema = Record<string, unknown>;
type Operation = { responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }> };
type Route = { pattern: RegExp; params: number; operations: Record<string, Operation> };

let document: { routes: Route[]; components: Record<string, JsonSchema> } | null = null;
const validators = new Map<string, z.ZodType>();

function loadDocument() {
  if (document) return document;
  const openapi = api.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "Fanclub API", version: "1.0.0" } });
  const routes = Object.entries(openapi.paths ?? {}).map(([path, operations]) => ({
    pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
    params: (path.match(/\{/g) ?? []).length,
    operations: operations as Record<string, Operation>,
  }));
  // A literal segment wins over a parameter: /posts/scheduled is not /posts/{id}.
  routes.sort((a, b) => a.params - b.params);
  document = { routes, components: (openapi.components?.schemas ?? {}) as Record<string, JsonSchema> };
  return document;
}

/** The document's schema as a closed one: an object allows exactly the properties it names. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== "object" || schema === null) return schema;
  const copy: JsonSchema = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, key === "example" || key === "default" ? value : closed(value)]),
  );
  if (typeof copy.$ref === "string") copy.$ref = copy.$ref.replace("#/components/schemas/", "#/$defs/");
  if (copy.type === "object" && copy.properties && copy.additionalProperties === undefined)
    copy.additionalProperties = false;
  return copy;
}

function validatorFor(key: string, schema: JsonSchema): z.ZodType {
  let validator = validators.get(key);
  if (!validator) {
    const { components } = loadDocument();
    validator = z.fromJSONSchema({
      ...(closed(schema) as JsonSchema),
      $defs: closed(components) as Record<string, JsonSchema>,
    });
    validators.set(key, validator);
  }
  return validator;
}

/** The schema the document gives an answer, or why there is none. */
export function documentedSchema(
  method: string,
  path: string,
  status: number,
): { key: string; schema: JsonSchema } | { missing: string } {
  const { routes } = loadDocument();
  const route = routes.find((candidate) => candidate.pattern.test(path) && candidate.operations[method]);
  const operation = route?.operations[method];
  const response = operation?.responses?.[String(status)];
  if (!response) {
    if (status >= 400) return { key: "Error", schema: { $ref: "#/components/schemas/Error" } };
    return { missing: operation ? `status ${status} is not documented` : "the path and method are not documented" };
  }
  const schema = response.content?.["application/json"]?.schema;
  if (!schema) return { missing: `status ${status} is documented without a JSON body` };
  return { key: `${method} ${route!.pattern.source} ${status}`, schema };
}

/** Throws, failing the test that made the request, when the answer is not what the document says. */
export async function checkAnswer(request: Request, response: Response): Promise<void> {
  const url = new URL(request.url);
  if (!url.pathname.startsWith("/api/") || !response.headers.get("Content-Type")?.startsWith("application/json"))
    return;
  const path = url.pathname.slice("/api".length);
  // The document itself is the one answer it does not describe.
  if (path === "/openapi.json") return;
  const method = request.method.toLowerCase();
  const body: unknown = await response.clone().json();
  const documented = documentedSchema(method, path, response.status);
  if ("missing" in documented)
    throw new Error(
      `${request.method} ${url.pathname} answered ${response.status} with JSON, but ${documented.missing} in the OpenAPI document`,
    );
  const result = validatorFor(documented.key, documented.schema).safeParse(body);
  if (!result.success) {
    throw new Error(
      `${request.method} ${url.pathname} answered ${response.status} off its OpenAPI document:\n${z.prettifyError(result.error)}\n${JSON.stringify(body).slice(0, 2000)}`,
    );
  }
}
