package org.extent.sample;

import java.util.Collection;
import javax.jdo.annotations.*;

/** A client-chosen UUID key and an ordered 1-N through a join table. */
@PersistenceCapable(identityType = IdentityType.APPLICATION, table = "SHELF")
public class Shelf {
  @PrimaryKey
  @Persistent(valueStrategy = IdGeneratorStrategy.UUIDSTRING)
  private String code;

  private String label;

  @Persistent(table = "SHELF_ITEMS")
  @Join(column = "SHELF_CODE")
  @Element(column = "ITEM_ID")
  @Order(column = "POSITION")
  private Collection<Item> items;
}
