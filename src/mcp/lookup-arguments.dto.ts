import { applyDecorators } from '@nestjs/common';
import { ArgumentField } from '../shapes/arguments-schema';
import { IsId } from '../shapes/health-key.dto';
import { ToolNameArgument } from '../features/diagnoses/agrajag-arguments.dto';

const ContextIdArgument = (what: string) =>
  applyDecorators(ArgumentField(`The caller's ${what}; omit when the call has none.`, { optional: true }), IsId());

/** tool_health_lookup's arguments (P115): the tool and the ids of the caller's context (§4). */
export class LookupArguments {
  @ToolNameArgument()
  toolName: string;

  @ContextIdArgument('session id')
  sessionId?: string;

  @ContextIdArgument('user id')
  userId?: string;

  @ContextIdArgument('project id')
  projectId?: string;

  @ContextIdArgument('tenant id')
  tenantId?: string;
}
