import { Field, ObjectType } from '@nestjs/graphql';
import { PageInfo } from '../../shapes/page-info.model';
import { ToolHealthView } from '../../shapes/tool-health.view';

@ObjectType('ToolHealthEdge', { description: 'One entry and its cursor.' })
export class ToolHealthEdge {
  @Field({ description: 'Opaque; stable for the document whatever is written meanwhile. Pass it as `after` or `before`.' }) cursor: string;
  @Field(() => ToolHealthView, { description: 'The item.' }) node: ToolHealthView;
}

@ObjectType('ToolHealthConnection', {
  description: 'Health documents ordered by their key (`id`); page forward with first/after, back with last/before.',
})
export class ToolHealthConnection {
  @Field(() => [ToolHealthEdge], { description: 'The items of this page, each with its cursor.' }) edges: ToolHealthEdge[];
  @Field(() => PageInfo, { description: 'Where this page starts and ends.' }) pageInfo: PageInfo;
}
