package org.extent.sample;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.Date;
import javax.jdo.annotations.*;

/** An abstract root with a generated single-field key; subclasses share or extend its table. */
@PersistenceCapable(identityType = IdentityType.APPLICATION, table = "ITEM")
@Inheritance(strategy = InheritanceStrategy.NEW_TABLE)
@Discriminator(strategy = DiscriminatorStrategy.VALUE_MAP, column = "KIND", value = "ITEM")
@Version(
    strategy = VersionStrategy.VERSION_NUMBER,
    column = "VERSION",
    extensions = {@Extension(vendorName = "datanucleus", key = "field-name", value = "version")})
@FetchGroup(name = "withAuthor", members = {@Persistent(name = "author")})
public abstract class Item {
  @PrimaryKey
  @Persistent(valueStrategy = IdGeneratorStrategy.INCREMENT)
  private long id;

  private long version;
  private String title;
  private Date published;
  private BigDecimal price;

  @Persistent(defaultFetchGroup = "true")
  private Collection<String> tags;

  private Author author;
}
