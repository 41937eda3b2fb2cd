/**
 * Extent's sample model (a small library) as TypeScript classes with JDO decorators: the twin of
 * schema/jdo/package.jdo. Register the classes with a persistence context and they are served:
 *
 *   createRestHandler({ context: { name: "sample", url: "file:library.db", classes: [Author, Book, Magazine, Shelf, Member, Category] } })
 */
import {
  DatastoreIdentity,
  Discriminator,
  Element,
  EmbeddedOnly,
  FetchGroup,
  Inheritance,
  Join,
  Order,
  PersistenceCapable,
  Persistent,
  PrimaryKey,
  Version,
} from "../../src/jdo.ts";

const pkg = "org.extent.sample";

export enum Genre {
  FICTION,
  SCIENCE,
  HISTORY,
  POETRY,
}

@EmbeddedOnly({ package: pkg })
export class Address {
  @Persistent({ type: String }) street?: string;
  @Persistent({ type: String }) city?: string;
  @Persistent({ type: String }) country?: string;
}

/** Datastore identity: the server numbers authors (_id). */
@PersistenceCapable({ package: pkg, table: "AUTHOR" })
@DatastoreIdentity({ strategy: "increment" })
export class Author {
  @Persistent({ type: String, nullValue: "exception" }) name!: string;
  @Persistent({ type: "java.time.LocalDate" }) born?: string;
  @Persistent({ type: Address, embedded: true }) address?: Address;
  @Persistent({ mappedBy: "author", elementType: () => Item }) works?: Item[];
}

/** An abstract root with a generated single-field key; subclasses share or extend its table. */
@PersistenceCapable({ package: pkg, identityType: "application", table: "ITEM", abstract: true })
@Inheritance({ strategy: "new-table" })
@Discriminator({ strategy: "value-map", column: "KIND", value: "ITEM" })
@FetchGroup({ name: "withAuthor", members: ["author"] })
export class Item {
  @PrimaryKey({ type: "long", valueStrategy: "increment" }) id?: number;
  @Version({ column: "VERSION", type: "long" }) version?: number;
  @Persistent({ type: String }) title?: string;
  @Persistent({ type: Date }) published?: number;
  @Persistent({ type: "java.math.BigDecimal" }) price?: string;
  @Persistent({ elementType: String, defaultFetchGroup: true }) tags?: string[];
  @Persistent({ type: () => Author }) author?: Author;
}

@PersistenceCapable({ package: pkg, table: "BOOK" })
@Inheritance({ strategy: "new-table" })
@Discriminator({ value: "BOOK" })
export class Book extends Item {
  @Persistent({ type: String }) isbn?: string;
  @Persistent({ type: "int" }) pages?: number;
  @Persistent({ type: "Genre", enumConstants: Genre }) genre?: keyof typeof Genre;
}

@PersistenceCapable({ package: pkg })
@Inheritance({ strategy: "superclass-table" })
@Discriminator({ value: "MAGAZINE" })
export class Magazine extends Item {
  @Persistent({ type: "int" }) issue?: number;
}

/** A client-chosen UUID key and an ordered 1-N through a join table. */
@PersistenceCapable({ package: pkg, identityType: "application", table: "SHELF" })
export class Shelf {
  @PrimaryKey({ type: String, valueStrategy: "uuid-string" }) code?: string;
  @Persistent({ type: String }) label?: string;
  @Persistent({ elementType: () => Item, table: "SHELF_ITEMS" })
  @Join({ column: "SHELF_CODE" })
  @Element({ column: "ITEM_ID" })
  @Order({ column: "POSITION" })
  items?: Item[];
}

/** Members borrow books: 1-N through a join table (a book is on loan to one member at a time), owned by the member. */
@PersistenceCapable({ package: pkg, identityType: "application", table: "MEMBER" })
export class Member {
  @PrimaryKey({ type: String }) email!: string;
  @Persistent({ type: String }) name?: string;
  @Persistent({ type: "java.time.Instant" }) joined?: number;
  @Persistent({ keyType: String, valueType: String, defaultFetchGroup: true }) phones?: Record<string, string>;
  @Persistent({ elementType: () => Book, table: "LOANS" })
  @Join({ column: "MEMBER_EMAIL" })
  @Element({ column: "BOOK_ID" })
  borrowed?: Book[];
}

/** A composite key with an ancestor: a category's key holds its parent's key. */
@PersistenceCapable({ package: pkg, identityType: "application", objectIdClass: "Category$Key", table: "CATEGORY" })
export class Category {
  @PrimaryKey({ type: "long" }) id!: number;
  @PrimaryKey({ type: String }) kind!: string;
  @PrimaryKey({ type: "Category$Key" }) parent?: object;
  @Persistent({ type: String }) name?: string;
}

/** Every class of the model (Address comes along with Author). */
export const sampleClasses = [Author, Item, Book, Magazine, Shelf, Member, Category];
