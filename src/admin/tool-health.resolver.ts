import { Args, Query, Resolver } from '@nestjs/graphql';
import { Role } from '../auth/role';
import { Roles } from '../auth/roles.decorator';
import { CascadeService } from '../cascade/cascade.service';
import { HealthKeyArgs } from './args/health-key.args';
import { ToolHealthModel } from './models/tool-health.model';

@Resolver(() => ToolHealthModel)
@Roles(Role.AUDIT_READER)
export class ToolHealthResolver {
  constructor(private readonly cascade: CascadeService) {}

  @Query(() => ToolHealthModel, { description: 'One health document by its key.' })
  toolHealth(@Args() key: HealthKeyArgs): Promise<ToolHealthModel> {
    return this.cascade.getEntry(key);
  }
}
