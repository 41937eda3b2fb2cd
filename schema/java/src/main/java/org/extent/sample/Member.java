package org.extent.sample;

import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import javax.jdo.annotations.*;

/** Members borrow books: 1-N through a join table (a book is on loan to one member at a time), owned by the member. */
@PersistenceCapable(identityType = IdentityType.APPLICATION, table = "MEMBER")
public class Member {
  @PrimaryKey private String email;
  private String name;
  private Instant joined;

  @Persistent(defaultFetchGroup = "true")
  private Map<String, String> phones;

  @Persistent(table = "LOANS")
  @Join(column = "MEMBER_EMAIL")
  @Element(column = "BOOK_ID")
  private Collection<Book> borrowed;
}
