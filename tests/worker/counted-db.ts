/** A count of D1 round trips, for the tests that count round trips (round-trips.test.ts, messages.test.ts). */

/** env.DB with a count of what reaches D1 (its sessions included): single statements and batches. */
export function counted(
  db: D1Database,
  calls = { single: 0, batches: 0, batchSizes: [] as number[] },
): { database: D1Database; calls: typeof calls } {
  const wrapStatement = (statement: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, property) {
        if (property === "bind") return (...values: unknown[]) => wrapStatement(target.bind(...values));
        const value = Reflect.get(target, property, target) as unknown;
        if (typeof value !== "function") return value;
        if (property === "first" || property === "all" || property === "run" || property === "raw")
          return (...args: unknown[]) => {
            calls.single++;
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        return value.bind(target);
      },
    });
  const database = new Proxy(db, {
    get(target, property) {
      if (property === "prepare") return (query: string) => wrapStatement(target.prepare(query));
      if (property === "withSession" && typeof target.withSession === "function")
        return (constraint: string) => counted(target.withSession(constraint) as unknown as D1Database, calls).database;
      if (property === "batch")
        return (statements: D1PreparedStatement[]) => {
          calls.batches++;
          calls.batchSizes.push(statements.length);
          return target.batch(statements);
        };
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { database, calls };
}
