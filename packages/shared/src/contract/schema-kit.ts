/** Small schema builders the entity and route schemas share; they keep answers cheap to serialise (no anyOf). */
import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';

/** One of a few strings (an enum, not a union of literals, so serialising never has to try branches). */
export const StringEnum = <const T extends readonly string[]>(values: T, opts: { description?: string } = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...opts });

/** 0 or 1, the API's flags. */
export const Flag = (description?: string) => Type.Unsafe<0 | 1>({ type: 'integer', enum: [0, 1], ...(description ? { description } : {}) });

/** An object or null. */
export const NullableObject = <T extends TObject>(schema: T) => Type.Unsafe<Static<T> | null>({ ...schema, type: ['object', 'null'] });

/** A decimal string of a whole number (sizes and counts: exact past 2^53). */
export const DecimalString = (description?: string) => Type.String({ pattern: '^-?[0-9]+$', ...(description ? { description } : {}) });

/** An RFC 3339 time, or '' where the API has none. */
export const TimeString = (description?: string) => Type.String({ ...(description ? { description } : {}) });

/** A map of strings to strings. */
export const StringMap = (description?: string) => Type.Record(Type.String(), Type.String(), description ? { description } : {});

/** The empty object that calls which only act answer with. */
export const Empty = Type.Object({}, { description: 'Nothing to report: the call succeeded.' });

export type { Static, TSchema };
