import { Args, Mutation, Resolver } from '@nestjs/graphql';
import { CurrentPrincipal } from '../../auth/current-principal.decorator';
import { Principal } from '../../auth/principal';
import { Role } from '../../domain/role';
import { Roles } from '../../auth/roles.decorator';
import { HealthKeyInput } from '../../shapes/health-key.input';
import { ToolHealthView } from '../../shapes/tool-health.view';
import { PinToolHealthInput, PurgeToolHealthInput } from './admin.input';
import { PurgeResultModel } from './purge.model';
import { ToolHealthRepairsService } from './tool-health-repairs.service';

/**
 * An admin's repairs of entries (D17: admin only). Explicit @Roles(ADMIN) on every write resolver
 * although the guard's default is the same: a query added here by mistake must not quietly become
 * audit-readable, nor the reverse.
 */
@Resolver()
@Roles(Role.ADMIN)
export class ToolHealthRepairsResolver {
  constructor(private readonly repairs: ToolHealthRepairsService) {}

  @Mutation(() => ToolHealthView, { description: 'Pin an entry OK or DOWN until an instant; creates the entry if needed.' })
  pinToolHealth(
    @Args('input', { description: 'What to write, and to which entry.' }) input: PinToolHealthInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<ToolHealthView> {
    return this.repairs.pin(input, by);
  }

  @Mutation(() => ToolHealthView, { description: 'Lift the pin of an entry. NOT_FOUND when it has none.' })
  unpinToolHealth(
    @Args('input', { description: 'What to write, and to which entry.' }) input: HealthKeyInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<ToolHealthView> {
    return this.repairs.unpin(input, by);
  }

  @Mutation(() => ToolHealthView, { description: 'Delete one entry for good; returns what was deleted. NOT_FOUND when absent.' })
  deleteToolHealth(
    @Args('input', { description: 'What to write, and to which entry.' }) input: HealthKeyInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<ToolHealthView> {
    return this.repairs.delete(input, by);
  }

  @Mutation(() => PurgeResultModel, {
    description: 'Delete for good the entries of a scope not written since `olderThan`, one capped batch; pinned entries are kept.',
  })
  purgeToolHealth(
    @Args('input', { description: 'What to write, and to which entry.' }) input: PurgeToolHealthInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<PurgeResultModel> {
    return this.repairs.purge(input, by);
  }
}
