import { IncomingMessage, ServerResponse } from 'node:http';
import { Controller, Delete, Get, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { Principal } from '../auth/principal';
import { Role } from '../domain/role';
import { Roles } from '../auth/roles.decorator';
import { JsonRpcErrorCode, jsonRpcError } from '../errors/json-rpc-errors';
import { McpUnreadableBody } from './mcp-edge.hook';
import { McpService } from './mcp.service';

// Structural types: only the members of the adapter's Fastify used here (its own types are generic).
interface RawRequest {
  raw: IncomingMessage;
  body: unknown;
}
interface RawReply {
  raw: ServerResponse;
  hijack(): void;
  code(status: number): RawReply;
  header(name: string, value: string): RawReply;
  send(body: unknown): RawReply;
}

/**
 * Streamable HTTP MCP endpoint (issue 15). Host/Origin and the key are checked before the body is
 * read, answered as JSON-RPC (mcp-edge.hook.ts, P136); ApiKeyGuard then applies @Roles; every role may connect, and the tools a key sees and may call are
 * decided per tool (D17, P73). Not in the OpenAPI document: it is JSON-RPC, described by MCP.
 */
@ApiExcludeController()
@Roles(Role.DISPATCHER, Role.TOOL_HEALTH_WRITER, Role.AUDIT_READER)
@Controller('mcp')
export class McpController {
  constructor(private readonly mcp: McpService) {}

  /**
   * The SDK transport writes the answer itself; hijack keeps Fastify from sending a second one.
   * A body the JSON parser refused arrives as McpUnreadableBody: JSON-RPC's Parse error (P136).
   */
  @Post()
  async post(@Req() request: RawRequest, @Res() reply: RawReply, @CurrentPrincipal() principal: Principal): Promise<void> {
    if (request.body instanceof McpUnreadableBody) {
      const { message, field } = request.body.error;
      reply.code(400).send(jsonRpcError(JsonRpcErrorCode.PARSE_ERROR, `Parse error: ${message}`, { field }));
      return;
    }
    reply.hijack();
    await this.mcp.handle(principal, request.raw, reply.raw, request.body);
  }

  /** Stateless (P70): no server-to-client stream to open and no session to end. */
  @Get()
  stream(@Res() reply: RawReply): void {
    methodNotAllowed(reply);
  }

  @Delete()
  endSession(@Res() reply: RawReply): void {
    methodNotAllowed(reply);
  }
}

/** MCP (Streamable HTTP): a server without a GET stream answers 405, which clients expect. */
function methodNotAllowed(reply: RawReply): void {
  reply
    .code(405)
    .header('allow', 'POST')
    .send({
      ...jsonRpcError(JsonRpcErrorCode.REFUSED, 'Method not allowed: this MCP server is stateless; POST JSON-RPC messages to /mcp'),
    });
}
