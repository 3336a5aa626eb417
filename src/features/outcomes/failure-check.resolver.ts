import { Args, Query, Resolver } from '@nestjs/graphql';
import { Role } from '../../domain/role';
import { Roles } from '../../auth/roles.decorator';
import { DispatchOutcomeService } from './dispatch-outcome.service';
import { FailureCheckArgs } from './failure-check.args';
import { FailureCheckView } from './failure-check.view';

/** The failure check without its writes (P176): why a failure of this caller would or would not spawn a diagnosis. */
@Resolver()
@Roles(Role.AUDIT_READER)
export class FailureCheckResolver {
  constructor(private readonly outcomes: DispatchOutcomeService) {}

  @Query(() => FailureCheckView, {
    description:
      'What POST /v1/outcomes/failure would decide now for this caller and error — spawn a diagnosis or not, and why — without writing, counting or recording anything.',
  })
  failureCheck(@Args() args: FailureCheckArgs): Promise<FailureCheckView> {
    return this.outcomes.checkFailureOnly(args);
  }
}
