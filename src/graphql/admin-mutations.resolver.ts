import { Args, Context, Info, Mutation, Resolver } from '@nestjs/graphql';
import { GraphQLResolveInfo, responsePathAsArray } from 'graphql';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { Principal } from '../auth/principal';
import { Role } from '../domain/role';
import { Roles } from '../auth/roles.decorator';
import { AdminWriteService } from './admin-write.service';
import { addGraphqlWarning } from '../shapes/graphql-warnings';
import { PinToolHealthInput, PurgeToolHealthInput, SetTenantHistoryLimitInput } from '../features/tool-health/admin.input';
import { ChangeCooldownWindowInput, ClearCooldownInput, SetCooldownInput } from '../features/cooldowns/cooldown.input';
import { ClearToolHealthInput, RecordDiagnosisInput } from '../features/diagnoses/diagnosis.input';
import { HealthKeyInput } from '../shapes/health-key.input';
import { MarkAvailableInput, MarkIntermittentInput, MarkUnavailableInput } from '../features/system-writes/system-write.input';
import { PurgeResultModel } from '../features/tool-health/purge.model';
import { SweepResultView } from '../features/cooldowns/cooldown.dto';
import { TenantSettingsModel } from '../features/tenants/tenant-settings.model';
import { ToolHealthView } from '../shapes/tool-health.view';

/**
 * Every write path, for admins only (D17). Explicit @Roles(ADMIN) although the guard's default
 * is the same: a query added here by mistake must not quietly become audit-readable, nor the
 * reverse.
 */
@Resolver()
@Roles(Role.ADMIN)
export class AdminMutationsResolver {
  constructor(private readonly writes: AdminWriteService) {}

  @Mutation(() => ToolHealthView, { description: 'Mark a tool DOWN at one scope, with what the dispatch saw.' })
  markToolUnavailable(
    @Args('input', { description: 'What to write, and to which entry.' }) input: MarkUnavailableInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<ToolHealthView> {
    return this.writes.markUnavailable(input, by);
  }

  @Mutation(() => ToolHealthView, {
    deprecationReason: 'Use markToolUnavailable.',
    description: 'The former name of markToolUnavailable.',
  })
  markUnavailable(
    @Args('input', { description: 'What to write, and to which entry.' }) input: MarkUnavailableInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<ToolHealthView> {
    return this.writes.markUnavailable(input, by);
  }

  @Mutation(() => ToolHealthView, { description: 'Mark a tool DEGRADED (works now and then) at one scope.' })
  markToolIntermittent(
    @Args('input', { description: 'What to write, and to which entry.' }) input: MarkIntermittentInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<ToolHealthView> {
    return this.writes.markIntermittent(input, by);
  }

  @Mutation(() => ToolHealthView, {
    deprecationReason: 'Use markToolIntermittent.',
    description: 'The former name of markToolIntermittent.',
  })
  markIntermittent(
    @Args('input', { description: 'What to write, and to which entry.' }) input: MarkIntermittentInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<ToolHealthView> {
    return this.writes.markIntermittent(input, by);
  }

  @Mutation(() => ToolHealthView, { description: 'Mark a tool OK again at one scope. NOT_FOUND when nothing is stored.' })
  markToolAvailable(
    @Args('input', { description: 'What to write, and to which entry.' }) input: MarkAvailableInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<ToolHealthView> {
    return this.writes.markAvailable(input, by);
  }

  @Mutation(() => ToolHealthView, { deprecationReason: 'Use markToolAvailable.', description: 'The former name of markToolAvailable.' })
  markAvailable(
    @Args('input', { description: 'What to write, and to which entry.' }) input: MarkAvailableInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<ToolHealthView> {
    return this.writes.markAvailable(input, by);
  }

  @Mutation(() => ToolHealthView, {
    description: "Start or renew the cooldown of one error signature; a repeated cooldown climbs its classification's ladder.",
  })
  setCooldown(@Args('input', { description: 'What to write, and to which entry.' }) input: SetCooldownInput): Promise<ToolHealthView> {
    return this.writes.setCooldown(input);
  }

  @Mutation(() => ToolHealthView, { description: 'Forget one cooldown (signature, userId) entirely. NOT_FOUND when there is none.' })
  clearCooldown(@Args('input', { description: 'What to write, and to which entry.' }) input: ClearCooldownInput): Promise<ToolHealthView> {
    return this.writes.clearCooldown(input);
  }

  @Mutation(() => ToolHealthView, {
    description:
      'Give one cooldown a new window without restarting it: a running cooldown ends at its start plus the new window (or at once, if that has passed); later repetitions climb from it. NOT_FOUND when there is no such cooldown.',
  })
  changeCooldownWindow(
    @Args('input', { description: 'Which cooldown, and its new window.' }) input: ChangeCooldownWindowInput,
  ): Promise<ToolHealthView> {
    return this.writes.changeCooldownWindow(input);
  }

  @Mutation(() => ToolHealthView, { description: 'Record a diagnosis verdict on an entry.' })
  async recordDiagnosis(
    @Args('input', { description: 'What to write, and to which entry.' }) input: RecordDiagnosisInput,
    @CurrentPrincipal() by: Principal,
    @Context() context: object,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ToolHealthView> {
    const { entry, cooldownRefused } = await this.writes.recordDiagnosis(input, by);
    // D20, P150: the status is recorded; the answer says the cooldown was not (REST: a header).
    if (cooldownRefused)
      addGraphqlWarning(context, { code: 'COOLDOWN_REFUSED', message: cooldownRefused, path: responsePathAsArray(info.path) });
    return entry;
  }

  @Mutation(() => ToolHealthView, {
    description: 'Back to OK, every active cooldown ended (as the tool_health_clear tool does). NOT_FOUND when nothing is stored.',
  })
  clearToolHealth(
    @Args('input', { description: 'What to write, and to which entry.' }) input: ClearToolHealthInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<ToolHealthView> {
    return this.writes.clearToolHealth(input, by);
  }

  @Mutation(() => SweepResultView, {
    description: 'Delete now, everywhere, the cooldowns that expired longer than the grace period ago (as the periodic sweep does).',
  })
  sweepCooldowns(): Promise<SweepResultView> {
    return this.writes.runSweep();
  }

  @Mutation(() => SweepResultView, { deprecationReason: 'Use sweepCooldowns.', description: 'The former name of sweepCooldowns.' })
  runSweep(): Promise<SweepResultView> {
    return this.writes.runSweep();
  }

  @Mutation(() => TenantSettingsModel, { description: "Set (or with null reset) how many history items a tenant's entries keep." })
  setTenantHistoryLimit(
    @Args('input', { description: 'What to write, and to which entry.' }) input: SetTenantHistoryLimitInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<TenantSettingsModel> {
    return this.writes.setTenantHistoryLimit(input, by);
  }

  @Mutation(() => ToolHealthView, { description: 'Pin an entry OK or DOWN until an instant; creates the entry if needed.' })
  pinToolHealth(
    @Args('input', { description: 'What to write, and to which entry.' }) input: PinToolHealthInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<ToolHealthView> {
    return this.writes.pin(input, by);
  }

  @Mutation(() => ToolHealthView, { description: 'Lift the pin of an entry. NOT_FOUND when it has none.' })
  unpinToolHealth(
    @Args('input', { description: 'What to write, and to which entry.' }) input: HealthKeyInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<ToolHealthView> {
    return this.writes.unpin(input, by);
  }

  @Mutation(() => ToolHealthView, { description: 'Delete one entry for good; returns what was deleted. NOT_FOUND when absent.' })
  deleteToolHealth(
    @Args('input', { description: 'What to write, and to which entry.' }) input: HealthKeyInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<ToolHealthView> {
    return this.writes.delete(input, by);
  }

  @Mutation(() => PurgeResultModel, {
    description: 'Delete for good the entries of a scope not written since `olderThan`, one capped batch; pinned entries are kept.',
  })
  purgeToolHealth(
    @Args('input', { description: 'What to write, and to which entry.' }) input: PurgeToolHealthInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<PurgeResultModel> {
    return this.writes.purge(input, by);
  }
}
