package org.extent.sample;

import jakarta.persistence.*;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;

/** Members borrow books: 1-N through a join table (a book is on loan to one member at a time), owned by the member. */
@Entity
@Table(name = "MEMBER")
public class Member {
  @Id private String email;
  private String name;
  private Instant joined;

  @ElementCollection(fetch = FetchType.EAGER)
  private Map<String, String> phones;

  @OneToMany
  @JoinTable(name = "LOANS", joinColumns = @JoinColumn(name = "MEMBER_EMAIL"), inverseJoinColumns = @JoinColumn(name = "BOOK_ID"))
  private Collection<Book> borrowed;
}
