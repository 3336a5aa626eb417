import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Role } from '../../domain/role';
import { Roles } from '../../auth/roles.decorator';
import { dtoJsonSchema } from '../../shapes/dto-json-schema';
import { SchemaBody } from '../../errors/validation';
import { AnnotateChangesDto, AnnotateManifestDto, AnnotatedChangesView, AnnotatedManifestView } from './annotate.dto';
import { ExplainToolDto, ExplanationView } from './explain.dto';
import { ManifestService } from './manifest.service';
import { ApiContract } from '../../errors/openapi-errors';

/** The annotate body, checked by its compiled schema: class-validator on a 200-tool manifest cost ~15 % of the request (P80). */
const ANNOTATE = dtoJsonSchema(AnnotateManifestDto);
const ANNOTATE_CHANGES = dtoJsonSchema(AnnotateChangesDto);

/** §9 read path for the dispatcher: the turn's manifest as the LLM should see it, and D16. */
@ApiTags('manifest')
@ApiSecurity('api-key')
@Roles(Role.DISPATCHER)
@Controller('v1/manifest')
export class ManifestController {
  constructor(private readonly service: ManifestService) {}

  @Post('annotate')
  @HttpCode(200)
  @ApiOkResponse({ type: AnnotatedManifestView })
  @ApiContract(
    'annotateManifest',
    "Annotate a turn's tool manifest",
    "Takes the tools an LLM is about to see in one turn and answers the ones it may see, in input order, each with a suffix for its description (unavailable since…, intermittent…), its effective status and whether to call it; plus the session's client tools that left with their client, and how many tools were filtered out and why.",
  )
  annotate(
    @SchemaBody(AnnotateManifestDto, ANNOTATE.schema, ANNOTATE.patternMessages) dto: AnnotateManifestDto,
  ): Promise<AnnotatedManifestView> {
    return this.service.annotate(dto);
  }

  @Post('annotate/changes')
  @HttpCode(200)
  @ApiOkResponse({ type: AnnotatedChangesView })
  @ApiContract(
    'annotateManifestChanges',
    "Annotate a turn's tool manifest by difference",
    'The same turn as annotateManifest, for a caller that already holds the descriptions: tools may come without them, and the answer lists only the tools that are not plainly usable — those with a suffix or not to be called — each exactly as annotateManifest lists it, plus how many were plain, the departed client tools and what was filtered. In a typical turn that is a few hundred bytes instead of the whole manifest echoed back.',
  )
  annotateChanges(
    @SchemaBody(AnnotateChangesDto, ANNOTATE_CHANGES.schema, ANNOTATE_CHANGES.patternMessages) dto: AnnotateChangesDto,
  ): Promise<AnnotatedChangesView> {
    return this.service.annotateChanges(dto);
  }

  @Post('explain')
  @HttpCode(200)
  @ApiOkResponse({ type: ExplanationView })
  @ApiContract(
    'explainTool',
    'Explain a tool the LLM cannot call',
    'What to tell the LLM instead of "Unknown tool": for a tool name, the caller\'s context and whether the registry serves the name, the error code to report and a message for the LLM (for example that a client\'s tool is unreachable since the client disconnected).',
  )
  explain(@Body() dto: ExplainToolDto): Promise<ExplanationView> {
    return this.service.explain(dto);
  }
}
