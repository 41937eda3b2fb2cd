package org.extent.sample;

import jakarta.persistence.*;
import java.time.LocalDate;
import java.util.Collection;
import org.datanucleus.api.jakarta.annotations.DatastoreId;

/** No @Id: datastore identity (the server numbers authors, JSON shows _id). */
@Entity
@Table(name = "AUTHOR")
@DatastoreId(generationType = GenerationType.TABLE)
public class Author {
  @Basic(optional = false)
  private String name;

  private LocalDate born;

  @Embedded private Address address;

  @OneToMany(mappedBy = "author")
  private Collection<Item> works;
}
