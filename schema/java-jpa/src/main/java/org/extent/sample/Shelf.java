package org.extent.sample;

import jakarta.persistence.*;
import java.util.Collection;

/** A client-chosen UUID key and an ordered 1-N through a join table. */
@Entity
@Table(name = "SHELF")
public class Shelf {
  @Id
  @GeneratedValue(strategy = GenerationType.UUID)
  private String code;

  private String label;

  @OneToMany
  @OrderColumn(name = "POSITION")
  @JoinTable(name = "SHELF_ITEMS", joinColumns = @JoinColumn(name = "SHELF_CODE"), inverseJoinColumns = @JoinColumn(name = "ITEM_ID"))
  private Collection<Item> items;
}
