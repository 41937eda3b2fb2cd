package org.extent.sample;

import jakarta.persistence.*;

@Entity
@Inheritance(strategy = InheritanceType.SINGLE_TABLE)
@DiscriminatorValue("MAGAZINE")
public class Magazine extends Item {
  private int issue;
}
