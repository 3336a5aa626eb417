import { Args, Mutation, Resolver } from '@nestjs/graphql';
import { CurrentPrincipal } from '../../auth/current-principal.decorator';
import { Principal } from '../../auth/principal';
import { Role } from '../../domain/role';
import { Roles } from '../../auth/roles.decorator';
import { adminActor, nullsAbsent } from '../../shapes/admin-actor';
import { ToolHealthView } from '../../shapes/tool-health.view';
import { MarkAvailableInput, MarkIntermittentInput, MarkUnavailableInput } from './system-write.input';
import { SystemWritesService } from './system-writes.service';

const INPUT = { description: 'What to write, and to which entry.' };

/** The system writes (§7 first row) for an admin (D17); the source defaults to the admin's name. */
@Resolver()
@Roles(Role.ADMIN)
export class SystemWritesResolver {
  constructor(private readonly writes: SystemWritesService) {}

  @Mutation(() => ToolHealthView, { description: 'Mark a tool DOWN at one scope, with what the dispatch saw.' })
  markToolUnavailable(@Args('input', INPUT) input: MarkUnavailableInput, @CurrentPrincipal() by: Principal): Promise<ToolHealthView> {
    return this.writes.markUnavailable({ ...nullsAbsent(input), source: input.source ?? adminActor(by) });
  }

  @Mutation(() => ToolHealthView, { deprecationReason: 'Use markToolUnavailable.', description: 'The former name of markToolUnavailable.' })
  markUnavailable(@Args('input', INPUT) input: MarkUnavailableInput, @CurrentPrincipal() by: Principal): Promise<ToolHealthView> {
    return this.markToolUnavailable(input, by);
  }

  @Mutation(() => ToolHealthView, { description: 'Mark a tool DEGRADED (works now and then) at one scope.' })
  markToolIntermittent(@Args('input', INPUT) input: MarkIntermittentInput, @CurrentPrincipal() by: Principal): Promise<ToolHealthView> {
    return this.writes.markIntermittent({ ...nullsAbsent(input), source: input.source ?? adminActor(by) });
  }

  @Mutation(() => ToolHealthView, {
    deprecationReason: 'Use markToolIntermittent.',
    description: 'The former name of markToolIntermittent.',
  })
  markIntermittent(@Args('input', INPUT) input: MarkIntermittentInput, @CurrentPrincipal() by: Principal): Promise<ToolHealthView> {
    return this.markToolIntermittent(input, by);
  }

  @Mutation(() => ToolHealthView, { description: 'Mark a tool OK again at one scope. NOT_FOUND when nothing is stored.' })
  markToolAvailable(@Args('input', INPUT) input: MarkAvailableInput, @CurrentPrincipal() by: Principal): Promise<ToolHealthView> {
    return this.writes.markAvailable({ ...nullsAbsent(input), source: input.source ?? adminActor(by) });
  }

  @Mutation(() => ToolHealthView, { deprecationReason: 'Use markToolAvailable.', description: 'The former name of markToolAvailable.' })
  markAvailable(@Args('input', INPUT) input: MarkAvailableInput, @CurrentPrincipal() by: Principal): Promise<ToolHealthView> {
    return this.markToolAvailable(input, by);
  }
}
