package org.extent.sample;

import jakarta.persistence.*;
import java.io.Serializable;

/** A composite key with an ancestor: a category's key holds its parent's key. */
@Entity
@Table(name = "CATEGORY")
@IdClass(Category.Key.class)
public class Category {
  @Id private long id;
  @Id private String kind;
  @Id private Key parent;
  private String name;

  /** The id class: the key fields, the parent's key included. */
  public static class Key implements Serializable {
    public long id;
    public String kind;
    public Key parent;
  }
}
