import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Role } from '../auth/role';
import { Roles } from '../auth/roles.decorator';
import { dtoJsonSchema } from '../common/dto/dto-json-schema';
import { SchemaBody } from '../errors/validation';
import { AnnotateManifestDto, AnnotatedManifestView } from './dto/annotate.dto';
import { ExplainToolDto, ExplanationView } from './dto/explain.dto';
import { ManifestService } from './manifest.service';

/** The annotate body, checked by its compiled schema: class-validator on a 200-tool manifest cost ~15 % of the request (P80). */
const ANNOTATE = dtoJsonSchema(AnnotateManifestDto);

/** §9 read path for the dispatcher: the turn's manifest as the LLM should see it, and D16. */
@ApiTags('manifest')
@ApiSecurity('api-key')
@Roles(Role.DISPATCHER)
@Controller('v1/manifest')
export class ManifestController {
  constructor(private readonly service: ManifestService) {}

  @Post('annotate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Annotate a turn\'s tool manifest: audience filter (§8), §9 suffixes, departed client tools (D15b)' })
  @ApiOkResponse({ type: AnnotatedManifestView })
  annotate(@SchemaBody(AnnotateManifestDto, ANNOTATE.schema, ANNOTATE.patternMessages) dto: AnnotateManifestDto): Promise<AnnotatedManifestView> {
    return this.service.annotate(dto);
  }

  @Post('explain')
  @HttpCode(200)
  @ApiOperation({ summary: 'What to tell the LLM instead of "Unknown tool" (D16)' })
  @ApiOkResponse({ type: ExplanationView })
  explain(@Body() dto: ExplainToolDto): Promise<ExplanationView> {
    return this.service.explain(dto);
  }
}
