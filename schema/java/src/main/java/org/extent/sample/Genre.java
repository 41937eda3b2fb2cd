package org.extent.sample;

/** A book's genre: stored by name. */
public enum Genre {
  FICTION,
  SCIENCE,
  HISTORY,
  POETRY
}
