/** A generated Java source tree of persistent classes, for measuring start-up over Java sources. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const CLASSES = 100;

/** A class of a realistic shape: a key, basics, dates, an enum, a collection, a reference, getters and bodies. */
export function source(i: number): string {
  const next = (i + 1) % CLASSES;
  return `package org.bench.model${i % 10};

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.*;
import javax.jdo.annotations.*;
import org.bench.model${next % 10}.Entity${next};
import org.bench.Status;

/** Entity number ${i}. */
@PersistenceCapable(identityType = IdentityType.APPLICATION, table = "ENTITY_${i}")
@FetchGroup(name = "all", members = {@Persistent(name = "next"), @Persistent(name = "tags")})
public class Entity${i} implements java.io.Serializable {
  private static final long serialVersionUID = 1L;
  @PrimaryKey @Persistent(valueStrategy = IdGeneratorStrategy.INCREMENT) private long id;
  @Column(name = "NAME_${i}", length = 120) private String name;
  private BigDecimal amount;
  private LocalDate created;
  private Date updated;
  private Status status;
  private Integer count;
  private boolean active;
  @Persistent(defaultFetchGroup = "true") private Set<String> tags = new HashSet<>();
  private Map<String, Double> scores = new HashMap<>();
  private Entity${next} next;
  @Persistent(table = "ENTITY_${i}_LINKS") @Join(column = "OWNER") private List<Entity${next}> links = new ArrayList<>();

  public Entity${i}() {}

  public long getId() { return id; }
  public String getName() { return name; }
  public void setName(String name) { this.name = name; }
  public BigDecimal getAmount() { return amount == null ? BigDecimal.ZERO : amount; }
  @Override public String toString() { return "Entity${i}<" + id + ", " + name + ">"; }
  @Override public boolean equals(Object o) { return o instanceof Entity${i} e && e.id == id; }
  @Override public int hashCode() { return Long.hashCode(id); }
}
`;
}

/** Writes the tree (CLASSES classes in ten packages, and their enum) under `dir`. */
export function writeJavaTree(dir: string): void {
  for (let i = 0; i < CLASSES; i++) {
    const folder = join(dir, "org", "bench", `model${i % 10}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `Entity${i}.java`), source(i));
  }
  writeFileSync(join(dir, "org", "bench", "Status.java"), "package org.bench;\npublic enum Status { NEW, ACTIVE, CLOSED }\n");
}
