import { Args, ID, Query, Resolver } from '@nestjs/graphql';
import { Role } from '../../domain/role';
import { Roles } from '../../auth/roles.decorator';
import { Node } from '../../shapes/node.interface';
import { ToolHealthReadsService } from './tool-health-reads.service';

/** Relay's object identification (P146): node(id:) over the two Node types. */
@Resolver(() => Node)
@Roles(Role.AUDIT_READER)
export class NodeResolver {
  constructor(private readonly reads: ToolHealthReadsService) {}

  @Query(() => Node, {
    nullable: true,
    description: 'The health entry (by docId) or the event (by event id) with this id; null when there is none.',
  })
  node(@Args('id', { type: () => ID, description: 'The `id` of a ToolHealth or a HealthEvent.' }) id: string): Promise<Node | null> {
    return this.reads.nodeById(id);
  }
}
