package org.extent.sample;

import java.time.LocalDate;
import java.util.Collection;
import javax.jdo.annotations.*;

/** Datastore identity: the server numbers authors (_id). */
@PersistenceCapable(table = "AUTHOR")
@DatastoreIdentity(strategy = IdGeneratorStrategy.INCREMENT)
public class Author {
  @Persistent(nullValue = NullValue.EXCEPTION)
  private String name;

  private LocalDate born;

  @Persistent(embedded = "true")
  private Address address;

  @Persistent(mappedBy = "author")
  private Collection<Item> works;

  public String getName() {
    return name;
  }
}
