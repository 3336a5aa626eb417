import { Field, ID, InterfaceType } from '@nestjs/graphql';

/**
 * Relay's Node (P146): an object that `node(id:)` fetches again by its `id`. The ids stay the ones
 * the API always gave (a document's `_id`, an event's id), so no stored id or REST answer changes.
 * A health event carries `position`, a health document does not; names, not classes, so this file
 * imports neither type.
 */
@InterfaceType('Node', {
  description: 'An object with an id that the `node` query fetches again.',
  resolveType: (value: Record<string, unknown>): string => ('position' in value ? 'HealthEvent' : 'ToolHealth'),
})
export abstract class Node {
  @Field(() => ID, { description: "The id of the object: a health entry's docId or an event's id." })
  id: string;
}
