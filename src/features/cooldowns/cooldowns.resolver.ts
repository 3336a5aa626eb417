import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Role } from '../../domain/role';
import { Roles } from '../../auth/roles.decorator';
import { nullsAbsent } from '../../shapes/admin-actor';
import { ToolHealthView } from '../../shapes/tool-health.view';
import { ChangeCooldownWindowInput, ClearCooldownInput, SetCooldownInput } from './cooldown.input';
import { SweepResultView } from './cooldown.dto';
import { CooldownService } from './cooldown.service';
import { LimitArgs } from './limit.args';
import { SweepCandidateModel } from './sweep.model';

const INPUT = { description: 'What to write, and to which entry.' };

/** Cooldowns (§6, D9, D11) in the admin API: writes for admins, the sweep and probe listings for audit-readers too (D17). */
@Resolver()
@Roles(Role.ADMIN)
export class CooldownsResolver {
  constructor(private readonly cooldowns: CooldownService) {}

  @Mutation(() => ToolHealthView, {
    description: "Start or renew the cooldown of one error signature; a repeated cooldown climbs its classification's ladder.",
  })
  setCooldown(@Args('input', INPUT) input: SetCooldownInput): Promise<ToolHealthView> {
    return this.cooldowns.setCooldown(nullsAbsent(input));
  }

  @Mutation(() => ToolHealthView, { description: 'Forget one cooldown (signature, userId) entirely. NOT_FOUND when there is none.' })
  clearCooldown(@Args('input', INPUT) input: ClearCooldownInput): Promise<ToolHealthView> {
    return this.cooldowns.clearCooldown(nullsAbsent(input));
  }

  @Mutation(() => ToolHealthView, {
    description:
      'Give one cooldown a new window without restarting it: a running cooldown ends at its start plus the new window (or at once, if that has passed); later repetitions climb from it. NOT_FOUND when there is no such cooldown.',
  })
  changeCooldownWindow(
    @Args('input', { description: 'Which cooldown, and its new window.' }) input: ChangeCooldownWindowInput,
  ): Promise<ToolHealthView> {
    return this.cooldowns.changeCooldownWindow(nullsAbsent(input));
  }

  @Mutation(() => SweepResultView, {
    description: 'Delete now, everywhere, the cooldowns that expired longer than the grace period ago (as the periodic sweep does).',
  })
  sweepCooldowns(): Promise<SweepResultView> {
    return this.cooldowns.sweep();
  }

  @Mutation(() => SweepResultView, { deprecationReason: 'Use sweepCooldowns.', description: 'The former name of sweepCooldowns.' })
  runSweep(): Promise<SweepResultView> {
    return this.cooldowns.sweep();
  }

  @Query(() => [SweepCandidateModel], { description: 'Entries holding cooldowns that the next sweep deletes.' })
  @Roles(Role.AUDIT_READER)
  cooldownsDueForSweep(@Args() args: LimitArgs): Promise<SweepCandidateModel[]> {
    return this.cooldowns.dueForSweep(args.limit);
  }

  @Query(() => [ToolHealthView], {
    description: 'DOWN entries without an expected recovery time that nobody has checked for a while: the tools to probe.',
  })
  @Roles(Role.AUDIT_READER)
  dueForProbe(@Args() args: LimitArgs): Promise<ToolHealthView[]> {
    return this.cooldowns.dueForProbe(args.limit);
  }
}
