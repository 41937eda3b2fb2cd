package org.extent.sample;

import javax.jdo.annotations.*;

@PersistenceCapable(table = "BOOK")
@Inheritance(strategy = InheritanceStrategy.NEW_TABLE)
@Discriminator(value = "BOOK")
public class Book extends Item {
  private String isbn;
  private int pages;
  private Genre genre;
}
