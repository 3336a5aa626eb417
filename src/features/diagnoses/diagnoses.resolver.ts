import { Args, Context, Info, Mutation, Resolver } from '@nestjs/graphql';
import { GraphQLResolveInfo, responsePathAsArray } from 'graphql';
import { CurrentPrincipal } from '../../auth/current-principal.decorator';
import { Principal } from '../../auth/principal';
import { Role } from '../../domain/role';
import { Roles } from '../../auth/roles.decorator';
import { DomainError } from '../../domain/domain-error';
import { describeKey, validateKey } from '../../domain/health-key';
import { adminActor, nullsAbsent } from '../../shapes/admin-actor';
import { addGraphqlWarning } from '../../shapes/graphql-warnings';
import { ToolHealthView } from '../../shapes/tool-health.view';
import { ClearToolHealthInput, RecordDiagnosisInput } from './diagnosis.input';
import { DiagnosisService } from './diagnosis.service';

const INPUT = { description: 'What to write, and to which entry.' };

/** Diagnosis verdicts (§7 third row) for an admin (D17); `by` defaults to the admin's name. */
@Resolver()
@Roles(Role.ADMIN)
export class DiagnosesResolver {
  constructor(private readonly diagnoses: DiagnosisService) {}

  @Mutation(() => ToolHealthView, { description: 'Record a diagnosis verdict on an entry.' })
  async recordDiagnosis(
    @Args('input', INPUT) input: RecordDiagnosisInput,
    @CurrentPrincipal() by: Principal,
    @Context() context: object,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ToolHealthView> {
    const { entry, cooldownRefused } = await this.diagnoses.recordDiagnosis({ ...nullsAbsent(input), by: input.by ?? adminActor(by) });
    if (!entry) throw DomainError.notFound(`no health entry for ${describeKey(validateKey(input))}`);
    // The status is recorded; the answer says the cooldown was not (REST: a header) (D20, P150).
    if (cooldownRefused)
      addGraphqlWarning(context, { code: 'COOLDOWN_REFUSED', message: cooldownRefused, path: responsePathAsArray(info.path) });
    return entry;
  }

  @Mutation(() => ToolHealthView, {
    description: 'Back to OK, every active cooldown ended (as the tool_health_clear tool does). NOT_FOUND when nothing is stored.',
  })
  clearToolHealth(@Args('input', INPUT) input: ClearToolHealthInput, @CurrentPrincipal() by: Principal): Promise<ToolHealthView> {
    return this.diagnoses.clearToolHealth(input, adminActor(by));
  }
}
