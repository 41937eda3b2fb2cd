package org.extent.sample;

import javax.jdo.annotations.EmbeddedOnly;

/** Lives only inside the author that embeds it. */
@EmbeddedOnly
public class Address {
  private String street;
  private String city;
  private String country;
}
