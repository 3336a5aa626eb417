import { Field, ObjectType } from '@nestjs/graphql';
import { PageInfo } from './page-info.model';
import { ToolHealthModel } from './tool-health.model';

@ObjectType('ToolHealthEdge')
export class ToolHealthEdge {
  @Field({ description: 'opaque; stable for the document whatever is written meanwhile' }) cursor: string;
  @Field(() => ToolHealthModel) node: ToolHealthModel;
}

@ObjectType('ToolHealthConnection', { description: 'Health documents ordered by their key (`id`).' })
export class ToolHealthConnection {
  @Field(() => [ToolHealthEdge]) edges: ToolHealthEdge[];
  @Field(() => PageInfo) pageInfo: PageInfo;
}
