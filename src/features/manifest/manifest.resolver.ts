import { Args, Query, Resolver } from '@nestjs/graphql';
import { Role } from '../../domain/role';
import { Roles } from '../../auth/roles.decorator';
import { AnnotatedToolArgs } from './annotated-tool.args';
import { AnnotatedToolGraphView } from './annotated-tool.view';
import { ManifestService } from './manifest.service';

/** The §9 read path for one tool over GraphQL (P171): what the operator console shows a caller sees. */
@Resolver()
@Roles(Role.AUDIT_READER)
export class ManifestResolver {
  constructor(private readonly service: ManifestService) {}

  @Query(() => AnnotatedToolGraphView, {
    description:
      'One tool as the LLM of a caller reads it this turn (the description with its suffix, the status, the hint) and why: the same answer as one tool of POST /v1/manifest/annotate.',
  })
  annotatedTool(@Args() args: AnnotatedToolArgs): Promise<AnnotatedToolGraphView> {
    return this.service.annotateOne(args);
  }
}
