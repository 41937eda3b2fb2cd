/**
 * A model whose objects share related objects and form cycles, for streamed extents
 * (test/extent-stream.test.ts, test/bench/large-extent.ts): persons live in shared cities, each
 * has a best friend (possibly itself) and friends along a ring, students are persons of a
 * subclass in the same table, and each city has a mayor among its residents' kind. Its rows are
 * written with plain SQL, so a large extent is seeded in seconds, not through the API.
 */
import { createClient } from "@libsql/client";
import { defineModel } from "../../src/index.ts";

export const GRAPH_PKG = "org.test.stream";

export const graphModel = defineModel({
  package: GRAPH_PKG,
  classes: {
    City: {
      identityType: "application",
      table: "CITY",
      fields: {
        id: { type: "long", primaryKey: true, column: "ID" },
        name: { type: "String", column: "NAME" },
        mayor: { type: "Person", column: "MAYOR_ID" },
        residents: { elementType: "Person", mappedBy: "city" },
      },
    },
    Person: {
      identityType: "application",
      table: "PERSON",
      inheritance: { discriminator: { strategy: "value-map", column: "KIND", value: "P" } },
      // One relation only: deep fetch depths follow a chain instead of a tree.
      fetchGroups: { chain: ["best"] },
      fields: {
        id: { type: "long", primaryKey: true, column: "ID" },
        name: { type: "String", column: "NAME" },
        city: { type: "City", column: "CITY_ID" },
        best: { type: "Person", column: "BEST_ID" },
        friends: { elementType: "Person", joinTable: "FRIENDS", join: { column: "PERSON_ID" }, elementColumn: "FRIEND_ID" },
      },
    },
    Student: {
      superclass: "Person",
      inheritance: { strategy: "superclass-table", discriminator: { value: "S" } },
      fields: { school: { type: "String", column: "SCHOOL" } },
    },
  },
});

/**
 * Writes `persons` persons (every 4th a student) in `cities` cities into the tables the handler
 * created at `url`: persons live in cities in blocks of persons / cities neighbours, person i's
 * best friend is (7i mod n) + 1 (far away, sometimes itself), its friends are the next and the
 * fourth next on the ring; city c's mayor is person 2c.
 */
export async function seedGraph(url: string, persons: number, cities = 5): Promise<void> {
  const client = createClient({ url });
  const numbers = `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${persons})`;
  await client.batch(
    [
      `INSERT INTO CITY (ID, NAME, MAYOR_ID) WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${cities}) SELECT i, 'city ' || i, MIN(2 * i, ${persons}) FROM c`,
      `INSERT INTO PERSON (ID, KIND, NAME, CITY_ID, BEST_ID, SCHOOL) ${numbers}
         SELECT i, CASE WHEN i % 4 = 0 THEN 'S' ELSE 'P' END, 'person ' || i, (i - 1) * ${cities} / ${persons} + 1, (7 * i) % ${persons} + 1,
                CASE WHEN i % 4 = 0 THEN 'school ' || (i % 3) END FROM s`,
      `INSERT INTO FRIENDS (PERSON_ID, FRIEND_ID) ${numbers} SELECT i, i % ${persons} + 1 FROM s UNION ALL SELECT i, (i + 3) % ${persons} + 1 FROM s`,
    ],
    "write",
  );
  client.close();
}
