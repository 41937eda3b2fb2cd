/**
 * Extent's sample model (a small library) as TypeScript classes with JPA decorators: the twin of
 * schema/jpa/orm.xml (and so of schema/jdo/package.jdo). Register the classes with a persistence
 * context and they are served:
 *
 *   createRestHandler({ context: { name: "sample", url: "file:library.db", classes: [Author, Book, Magazine, Shelf, Member, Category] } })
 */
import {
  Basic,
  DatastoreId,
  DiscriminatorColumn,
  DiscriminatorValue,
  ElementCollection,
  Embeddable,
  Embedded,
  Entity,
  GeneratedValue,
  Id,
  IdClass,
  Inheritance,
  JoinTable,
  ManyToOne,
  MapKeyClass,
  NamedEntityGraph,
  OneToMany,
  OrderColumn,
  Table,
  Version,
  Column,
} from "../../src/jpa.ts";

const pkg = "org.extent.sample";

export enum Genre {
  FICTION,
  SCIENCE,
  HISTORY,
  POETRY,
}

@Embeddable({ package: pkg })
export class Address {
  @Basic({ type: String }) street?: string;
  @Basic({ type: String }) city?: string;
  @Basic({ type: String }) country?: string;
}

/** No @Id: datastore identity (the server numbers authors, JSON shows _id). */
@Entity({ package: pkg })
@Table("AUTHOR")
@DatastoreId({ strategy: "increment" })
export class Author {
  @Basic({ type: String, optional: false }) name!: string;
  @Basic({ type: "java.time.LocalDate" }) born?: string;
  @Embedded({ type: Address }) address?: Address;
  @OneToMany({ targetEntity: () => Item, mappedBy: "author", type: "java.util.Collection" }) works?: Item[];
}

/** JOINED: each subclass has its own table, unless it says SINGLE_TABLE (Magazine). */
@Entity({ package: pkg, abstract: true })
@Table("ITEM")
@Inheritance({ strategy: "JOINED" })
@DiscriminatorValue("ITEM")
@DiscriminatorColumn({ name: "KIND" })
@NamedEntityGraph({ name: "withAuthor", attributeNodes: ["author"] })
export class Item {
  @Id({ type: "long" }) @GeneratedValue({ strategy: "TABLE" }) id?: number;
  @Version({ type: "long" }) @Column({ name: "VERSION" }) version?: number;
  @Basic({ type: String }) title?: string;
  @Basic({ type: Date }) published?: number;
  @Basic({ type: "java.math.BigDecimal" }) price?: string;
  @ElementCollection({ targetClass: String, type: "java.util.Collection", fetch: "EAGER" }) tags?: string[];
  @ManyToOne({ targetEntity: () => Author, fetch: "LAZY" }) author?: Author;
}

@Entity({ package: pkg })
@Table("BOOK")
@DiscriminatorValue("BOOK")
export class Book extends Item {
  @Basic({ type: String }) isbn?: string;
  @Basic({ type: "int" }) pages?: number;
  @Basic({ type: "Genre", enumConstants: Genre }) genre?: keyof typeof Genre;
}

@Entity({ package: pkg })
@Inheritance({ strategy: "SINGLE_TABLE" })
@DiscriminatorValue("MAGAZINE")
export class Magazine extends Item {
  @Basic({ type: "int" }) issue?: number;
}

/** A client-chosen UUID key and an ordered 1-N through a join table. */
@Entity({ package: pkg })
@Table("SHELF")
export class Shelf {
  @Id({ type: String }) @GeneratedValue({ strategy: "UUID" }) code?: string;
  @Basic({ type: String }) label?: string;
  @OneToMany({ targetEntity: () => Item, type: "java.util.Collection" })
  @OrderColumn({ name: "POSITION" })
  @JoinTable({ name: "SHELF_ITEMS", joinColumns: [{ name: "SHELF_CODE" }], inverseJoinColumns: [{ name: "ITEM_ID" }] })
  items?: Item[];
}

/** Members borrow books: 1-N through a join table (a book is on loan to one member at a time), owned by the member. */
@Entity({ package: pkg })
@Table("MEMBER")
export class Member {
  @Id({ type: String }) email!: string;
  @Basic({ type: String }) name?: string;
  @Basic({ type: "java.time.Instant" }) joined?: number;
  @ElementCollection({ targetClass: String, type: "java.util.Map", fetch: "EAGER" }) @MapKeyClass(String) phones?: Record<string, string>;
  @OneToMany({ targetEntity: () => Book, type: "java.util.Collection" })
  @JoinTable({ name: "LOANS", joinColumns: [{ name: "MEMBER_EMAIL" }], inverseJoinColumns: [{ name: "BOOK_ID" }] })
  borrowed?: Book[];
}

/** A composite key with an ancestor: a category's key holds its parent's key. */
@Entity({ package: pkg })
@Table("CATEGORY")
@IdClass("Category$Key")
export class Category {
  @Id({ type: "long" }) id!: number;
  @Id({ type: String }) kind!: string;
  @Id({ type: "Category$Key" }) parent?: object;
  @Basic({ type: String }) name?: string;
}

/** Every class of the model (Address comes along with Author). */
export const sampleClasses = [Author, Item, Book, Magazine, Shelf, Member, Category];
