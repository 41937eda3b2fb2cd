package org.extent.sample;

import jakarta.persistence.*;

@Entity
@Table(name = "BOOK")
@DiscriminatorValue("BOOK")
public class Book extends Item {
  private String isbn;
  private int pages;

  @Enumerated(EnumType.STRING)
  private Genre genre;
}
