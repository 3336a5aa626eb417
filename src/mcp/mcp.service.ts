import { IncomingMessage, ServerResponse } from 'node:http';
import { Injectable, Logger } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, CallToolResult, ListToolsRequestSchema, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AppConfig } from '../config/app-config';
import { JsonRpcErrorCode, JsonRpcFault, jsonRpcError } from '../errors/json-rpc-errors';
import { DatabaseLiveness } from '../database/database-liveness';
import { Principal, actorOf } from '../auth/principal';
import { CascadeService } from '../features/tool-health/cascade.service';
import { DiagnosisService } from '../features/diagnoses/diagnosis.service';
import { compileArgumentsValidator } from '../features/diagnoses/agrajag-arguments';
import { AgrajagToolName } from '../features/diagnoses/agrajag-tools';
import { DomainError, DomainErrorCode } from '../domain/domain-error';
import { toDomainError } from '../errors/to-domain-error';
import { withinDeadline } from '../database/request-deadline';
import { refuseMessage } from './mcp-message-check';
import { describeEffective, describeEntry, describeError } from './mcp-text';
import { McpReadToolName, McpToolDefinition, findTool, mayCall, rolesFor, visibleTools } from './mcp-tools';

const SERVER_INFO = { name: 'tool-availability-service', title: 'Tool availability', version: '1' };
const INSTRUCTIONS =
  "Tool health state (status per scope, cooldowns per error signature). Read a tool's entry with tool_health_get " +
  'or its effective status for a caller with tool_health_lookup before you classify; record a verdict with the ' +
  'tool_health_set_* tools. None of these tools touches the tool being diagnosed (SAFE_PROBE).';

const validateGet = compileArgumentsValidator(findTool(McpReadToolName.GET)!.inputSchema);
const validateLookup = compileArgumentsValidator(findTool(McpReadToolName.LOOKUP)!.inputSchema);

/** JSON form of a result: dates as ISO strings, as REST sends them and the outputSchema says. */
const json = <T>(value: T): Record<string, unknown> => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;

function asMcpTool(tool: McpToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    outputSchema: tool.outputSchema as Tool['outputSchema'],
    annotations: tool.annotations,
    _meta: { ...tool._meta },
  };
}

/**
 * The MCP face of the tool health API (issue 15): the four Agrajag writers and two readers over
 * Streamable HTTP, stateless (P70). Every tool calls the service REST uses; nothing here decides
 * tool health.
 */
@Injectable()
export class McpService {
  private readonly logger = new Logger('Mcp');

  constructor(
    private readonly diagnosis: DiagnosisService,
    private readonly cascade: CascadeService,
    private readonly config: AppConfig,
    private readonly liveness: DatabaseLiveness,
  ) {}

  /**
   * One Server and one transport per HTTP request (P70): no session state to find on the next
   * request, so any instance can answer it. JSON responses, no SSE stream: every answer is
   * ready when the request's work is done and no tool sends progress.
   */
  async handle(principal: Principal, req: IncomingMessage, res: ServerResponse, body: unknown, sentAt = Date.now()): Promise<void> {
    const refusal = refuseMessage(body); // P136: batches and ill-typed params, before the SDK
    if (refusal) {
      res.writeHead(refusal.status, { 'content-type': 'application/json' }).end(JSON.stringify(refusal.body));
      return;
    }
    const server = this.serverFor(principal, sentAt);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (error) {
      // The reply is hijacked (McpController): no Nest filter can answer for us any more.
      this.logger.error(error instanceof Error ? error.stack : String(error));
      if (!res.headersSent) {
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify(jsonRpcError(JsonRpcErrorCode.INTERNAL_ERROR, 'internal error')));
      }
    }
  }

  private serverFor(principal: Principal, sentAt: number): Server {
    const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: visibleTools(principal).map(asMcpTool) }));
    server.setRequestHandler(CallToolRequestSchema, (request) =>
      this.call(principal, request.params.name, request.params.arguments, sentAt),
    );
    return server;
  }

  /**
   * A tool the key may not call is refused like a tool that does not exist for it — a
   * JSON-RPC error (-32602), never run; a call that reaches a tool answers a result, with isError
   * for anything the caller can fix or retry (bad arguments name the argument and allowed values) (P73).
   * JsonRpcFault, not the SDK's McpError, whose message already carries "MCP error -32602: " (P136).
   * The work races the request deadline (P41, src/database/request-deadline.ts): a silent database is an isError
   * UNAVAILABLE result within it.
   */
  async call(principal: Principal, name: string, args: Record<string, unknown> | undefined, sentAt = Date.now()): Promise<CallToolResult> {
    const tool = findTool(name);
    if (!tool) {
      throw new JsonRpcFault(
        JsonRpcErrorCode.INVALID_PARAMS,
        `no tool named ${name}; this key's tools are: ${
          visibleTools(principal)
            .map((t) => t.name)
            .join(', ') || 'none'
        }`,
      );
    }
    if (!mayCall(principal, tool)) {
      throw new JsonRpcFault(
        JsonRpcErrorCode.INVALID_PARAMS,
        `FORBIDDEN: key "${principal.name}" may not call ${name}; it needs one of the roles ${rolesFor(tool).join(', ')}`,
        {
          code: DomainErrorCode.FORBIDDEN,
          tool: name,
          requiredRoles: rolesFor(tool),
        },
      );
    }
    try {
      const { text, structured } = await withinDeadline(
        this.run(tool, args ?? {}, principal),
        sentAt,
        this.config.requestDeadlineMs,
        this.liveness,
      );
      return { content: [{ type: 'text', text }], structuredContent: json(structured) };
    } catch (error) {
      const domain = toDomainError(error);
      if (!domain) {
        this.logger.error(error instanceof Error ? error.stack : String(error));
        throw new JsonRpcFault(JsonRpcErrorCode.INTERNAL_ERROR, 'internal error');
      }
      return { isError: true, content: [{ type: 'text', text: describeError(domain) }] };
    }
  }

  private async run(
    tool: McpToolDefinition,
    args: Record<string, unknown>,
    principal: Principal,
  ): Promise<{ text: string; structured: object }> {
    switch (tool.name) {
      case McpReadToolName.GET: {
        validateGet(args);
        const entry = await this.cascade.getEntry(args as { scope: unknown; scopeId?: unknown; toolName: unknown }).catch(nullIfNotFound);
        const text = entry
          ? describeEntry(entry)
          : `Nothing is stored for ${String(args.toolName)} at ${String(args.scope)}${args.scopeId ? ` ${String(args.scopeId)}` : ''}: it was never diagnosed or reported there.`;
        return { text, structured: { summary: text, found: entry !== null, entry } };
      }
      case McpReadToolName.LOOKUP: {
        validateLookup(args);
        const { toolName, ...context } = args as { toolName: string };
        const view = await this.cascade.lookupView(toolName, context);
        const text = describeEffective(view);
        return { text, structured: { summary: text, ...view } };
      }
      default: {
        const result = await this.diagnosis.invokeTool(tool.name as AgrajagToolName, args, actorOf(principal));
        const text = result.entry ? `${result.summary} Entry now: ${describeEntry(result.entry)}` : result.summary;
        return { text, structured: result }; // exactly REST's AgrajagToolResultView
      }
    }
  }
}

function nullIfNotFound(error: unknown): null {
  if (error instanceof DomainError && error.code === DomainErrorCode.NOT_FOUND) return null;
  throw error;
}
