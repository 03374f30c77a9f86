/**
 * Small checks for what reaches the page: API answers and socket frames (hand-written rather than zod, which
 * the Worker uses at its edges: zod/mini alone adds 4 to 5.6 KB gzip to the first /home, more than its 120 KB
 * budget leaves). A shape returns the value it checked, keeping only the fields it names, or throws a
 * ShapeError that says where the value went wrong.
 */
export type Shape<T> = (value: unknown, path?: string) => T;

export class ShapeError extends Error {
  override name = "ShapeError";
}

const fail = (path: string, expected: string): never => {
  throw new ShapeError(`${path || "answer"}: expected ${expected}`);
};

export const string: Shape<string> = (value, path = "") => (typeof value === "string" ? value : fail(path, "string"));
export const number: Shape<number> = (value, path = "") =>
  typeof value === "number" && Number.isFinite(value) ? value : fail(path, "number");
export const boolean: Shape<boolean> = (value, path = "") =>
  typeof value === "boolean" ? value : fail(path, "boolean");

export const nullable =
  <T>(shape: Shape<T>): Shape<T | null> =>
  (value, path) =>
    value === null ? null : shape(value, path);

/**
 * A field added after answers were stored (offline copies, the service worker's caches): absent, it takes
 * `fallback()`'s value; present, it must match.
 */
export const orDefault =
  <T>(shape: Shape<T>, fallback: () => T): Shape<T> =>
  (value, path) =>
    value === undefined ? fallback() : shape(value, path);

/** One of a few strings (an enum of the API). */
export const oneOf =
  <const T extends string>(...values: T[]): Shape<T> =>
  (value, path = "") =>
    values.includes(value as T) ? (value as T) : fail(path, values.join(" | "));

export const array =
  <T>(item: Shape<T>): Shape<T[]> =>
  (value, path = "") =>
    Array.isArray(value) ? value.map((entry, index) => item(entry, `${path}[${index}]`)) : fail(path, "array");

export const object =
  <Fields extends Record<string, Shape<unknown>>>(
    fields: Fields,
  ): Shape<{ [K in keyof Fields]: ReturnType<Fields[K]> }> =>
  (value, path = "") => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return fail(path, "object");
    const checked: Record<string, unknown> = {};
    for (const key in fields) checked[key] = fields[key]!((value as Record<string, unknown>)[key], `${path}.${key}`);
    return checked as { [K in keyof Fields]: ReturnType<Fields[K]> };
  };

/** An object used as a map: any keys, each value of one shape. */
export const record =
  <T>(item: Shape<T>): Shape<Record<string, T>> =>
  (value, path = "") => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return fail(path, "object");
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, item(entry, `${path}.${key}`)]));
  };

/** A field the answer may leave out. */
export const optional =
  <T>(shape: Shape<T>): Shape<T | undefined> =>
  (value, path) =>
    value === undefined ? undefined : shape(value, path);

/** Exactly one value (a union's tag). */
export const literal =
  <const T extends string | number | boolean | null>(expected: T): Shape<T> =>
  (value, path = "") =>
    value === expected ? expected : fail(path, JSON.stringify(expected));

/** The first of the shapes that matches (a union of the API), tried in order. */
export const anyOf =
  <T extends Shape<unknown>[]>(...shapes: T): Shape<ReturnType<T[number]>> =>
  (value, path = "") => {
    for (const shape of shapes) {
      try {
        return shape(value, path) as ReturnType<T[number]>;
      } catch {
        // the next one
      }
    }
    return fail(path, `one of ${shapes.length} forms`);
  };
