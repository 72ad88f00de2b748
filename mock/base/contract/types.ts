/**
 * The interface's shapes as TypeScript types, derived from the OpenAPI document: nothing here
 * restates a field by hand.
 */
import type { FromSchema } from 'json-schema-to-ts';
import type { openapiDocument } from './openapi.generated.ts';

type Schemas = (typeof openapiDocument)['components']['schemas'];

/** int64 values: `number` while exact, `bigint` past 2^53 (see lossless-json.ts). */
export type Int64 = number | bigint;

type Options = {
  deserialize: [{ pattern: { type: 'integer'; format: 'int64' }; output: Int64 }];
};

/** Availability of an animal: `available`, `pending` or `sold`. */
export type PetStatus = FromSchema<Schemas['PetStatus']>;
/** Request body of `createPet`. */
export type NewPet = FromSchema<Schemas['NewPet'], Options>;
/** An animal as the service returns it. */
export type Pet = FromSchema<Schemas['Pet'], Options>;
/** Body of every error response. */
export type ErrorBody = FromSchema<Schemas['Error']>;
type Paths = (typeof openapiDocument)['paths'];
type OperationIdOf<Item> = {
  [Method in keyof Item]: Item[Method] extends { readonly operationId: infer Id } ? Id : never;
}[keyof Item];
/** The operations the interface shows, read from the OpenAPI document's operationIds. */
export type OperationId = { [Path in keyof Paths]: OperationIdOf<Paths[Path]> }[keyof Paths];
