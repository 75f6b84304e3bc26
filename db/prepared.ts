import type { Db } from "./client";

/**
 * `build`'s prepared statements, made once per connection and reused: preparing a statement
 * costs about as much as a small read, and the rule judge makes several reads per run.
 */
export function preparedPerConnection<T>(build: (db: Db) => T): (db: Db) => T {
  const byConnection = new WeakMap<Db["$client"], T>();
  return (db) => {
    let prepared = byConnection.get(db.$client);
    if (prepared === undefined) {
      prepared = build(db);
      byConnection.set(db.$client, prepared);
    }
    return prepared;
  };
}
