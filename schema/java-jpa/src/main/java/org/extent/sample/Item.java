package org.extent.sample;

import jakarta.persistence.*;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.Date;

/** JOINED: each subclass has its own table, unless it says SINGLE_TABLE (Magazine). */
@Entity
@Table(name = "ITEM")
@Inheritance(strategy = InheritanceType.JOINED)
@DiscriminatorValue("ITEM")
@DiscriminatorColumn(name = "KIND")
@NamedEntityGraph(name = "withAuthor", attributeNodes = @NamedAttributeNode("author"))
public abstract class Item {
  @Id
  @GeneratedValue(strategy = GenerationType.TABLE)
  private long id;

  @Version
  @Column(name = "VERSION")
  private long version;

  private String title;

  @Temporal(TemporalType.TIMESTAMP)
  private Date published;

  private BigDecimal price;

  @ElementCollection(fetch = FetchType.EAGER)
  private Collection<String> tags;

  @ManyToOne(fetch = FetchType.LAZY)
  private Author author;
}
