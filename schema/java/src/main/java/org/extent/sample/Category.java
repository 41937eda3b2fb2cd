package org.extent.sample;

import java.io.Serializable;
import javax.jdo.annotations.*;

/** A composite key with an ancestor: a category's key holds its parent's key. */
@PersistenceCapable(identityType = IdentityType.APPLICATION, objectIdClass = Category.Key.class, table = "CATEGORY")
public class Category {
  @PrimaryKey private long id;
  @PrimaryKey private String kind;
  @PrimaryKey private Key parent;
  private String name;

  /** The key class: the primary-key fields, the parent's key included. */
  public static class Key implements Serializable {
    public long id;
    public String kind;
    public Key parent;
  }
}
