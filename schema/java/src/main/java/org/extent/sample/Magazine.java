package org.extent.sample;

import javax.jdo.annotations.*;

@PersistenceCapable
@Inheritance(strategy = InheritanceStrategy.SUPERCLASS_TABLE)
@Discriminator(value = "MAGAZINE")
public class Magazine extends Item {
  private int issue;
}
