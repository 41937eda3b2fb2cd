/**
 * Makers of decorators: each vocabulary's decorators are one line each on top of these.
 *
 * A decorator that takes only optional options works bare as well as called (`@Id` and
 * `@Id()`), as Java annotations read; the runtime tells the two apart by what it is passed.
 */
import { callSite } from "./site.ts";
import { recordClass, recordMember, type Vocabulary } from "./registry.ts";

/** A standard (TC39) field decorator; `accessor` fields are accepted too. */
export type FieldDecorator = (value: unknown, context: ClassFieldDecoratorContext | ClassAccessorDecoratorContext) => void;
export type ClassDecorator = (value: abstract new (...args: never[]) => unknown, context: ClassDecoratorContext) => void;

/** A field decorator usable bare (`@Transient`) or called (`@Transient()`). */
// The bare signature comes first: TypeScript checks `@Id` against the first overload that fits.
export interface OptionalFieldDecorator<O> {
  (value: unknown, context: ClassFieldDecoratorContext | ClassAccessorDecoratorContext): void;
  (options?: O): FieldDecorator;
}

export interface OptionalClassDecorator<O> {
  (value: abstract new (...args: never[]) => unknown, context: ClassDecoratorContext): void;
  (options?: O): ClassDecorator;
}

const isDecoratorCall = (args: readonly unknown[]): boolean =>
  args.length >= 2 && (typeof args[1] === "string" || (typeof args[1] === "object" && args[1] !== null && "kind" in args[1]));

export function fieldDecorator<O>(name: string, vocabulary: Vocabulary, props: (options: O | undefined) => Record<string, unknown>): OptionalFieldDecorator<O> {
  return function decorator(...args: unknown[]): FieldDecorator | undefined {
    if (isDecoratorCall(args)) {
      recordMember({ decorator: name, vocabulary, props: props(undefined) }, args);
      return undefined;
    }
    const use = { decorator: name, vocabulary, props: props(args[0] as O | undefined), site: callSite() };
    return (...applied: unknown[]) => recordMember(use, applied);
  } as OptionalFieldDecorator<O>;
}

/** A field decorator whose argument is required (`@Enumerated("ORDINAL")`). */
export function fieldDecoratorWith<A>(name: string, vocabulary: Vocabulary, props: (arg: A) => Record<string, unknown>): (arg: A) => FieldDecorator {
  return (arg: A) => {
    const use = { decorator: name, vocabulary, props: props(arg), site: callSite() };
    return (...applied: unknown[]) => recordMember(use, applied);
  };
}

export interface ClassDecoratorSpec<O> {
  props: (options: O | undefined) => Record<string, unknown>;
  /** A repeatable entry this decorator adds (a fetch group, an entity graph). */
  list?: (options: O) => [string, unknown];
}

export function classDecorator<O>(name: string, vocabulary: Vocabulary, spec: ClassDecoratorSpec<O>): OptionalClassDecorator<O> {
  return function decorator(...args: unknown[]): ClassDecorator | undefined {
    const bare = typeof args[0] === "function" && (args.length === 1 || isDecoratorCall(args));
    if (bare) {
      recordClass({ decorator: name, vocabulary, props: spec.props(undefined) }, args);
      return undefined;
    }
    const options = args[0] as O;
    const use = { decorator: name, vocabulary, props: spec.props(options), site: callSite(), list: spec.list?.(options) };
    return (...applied: unknown[]) => recordClass(use, applied);
  } as OptionalClassDecorator<O>;
}

/** A class decorator whose argument is required (`@DiscriminatorValue("BOOK")`, `@IdClass(Key)`). */
export function classDecoratorWith<A>(
  name: string,
  vocabulary: Vocabulary,
  spec: { props: (arg: A) => Record<string, unknown>; list?: (arg: A) => [string, unknown] },
): (arg: A) => ClassDecorator {
  return (arg: A) => {
    const use = { decorator: name, vocabulary, props: spec.props(arg), site: callSite(), list: spec.list?.(arg) };
    return (...applied: unknown[]) => recordClass(use, applied);
  };
}
