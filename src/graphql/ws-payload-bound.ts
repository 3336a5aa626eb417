import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { GraphQLModule } from '@nestjs/graphql';
import type { WebSocket, WebSocketServer } from 'ws';

/**
 * The largest WebSocket message read before the key is checked (P149). `ws` accepts 100 MiB by
 * default and graphql-ws parses `connection_init` before any key check (12 × 90 MB without a key
 * was 2.26 GB of peak memory). A connection_init with a key is ~100 bytes; GraphiQL's headers a
 * few hundred. A bigger first message closes the socket with 1009 after at most this many bytes.
 */
export const WS_MAX_PAYLOAD_BEFORE_KEY = 8 * 1024;

/** Once the key is accepted, a message may hold a subscription document of the largest kind allowed (P61) (P149). */
export const WS_MAX_PAYLOAD_AFTER_KEY = 1024 * 1024;

/** `ws` keeps each socket's bound in its Receiver; nothing public changes it after the handshake. */
interface BoundedSocket {
  _receiver?: { _maxPayload?: number };
}

/** Raises one authenticated socket's bound (P149). */
export function raiseMaxPayload(socket: WebSocket, bytes = WS_MAX_PAYLOAD_AFTER_KEY): void {
  const receiver = (socket as unknown as BoundedSocket)._receiver;
  if (receiver) receiver._maxPayload = bytes;
}

/**
 * Sets the pre-key bound on the graphql-ws server Nest's Apollo driver creates at init, without
 * `maxPayload` (its options are read at every handshake, so setting them after creation applies).
 */
@Injectable()
export class WsPayloadBound implements OnApplicationBootstrap {
  constructor(private readonly modules: ModuleRef) {}

  onApplicationBootstrap(): void {
    const graphql = this.modules.get(GraphQLModule, { strict: false }) as unknown as {
      graphQlAdapter?: { _subscriptionService?: { wss?: WebSocketServer } };
    };
    const wss = graphql.graphQlAdapter?._subscriptionService?.wss;
    if (!wss) throw new Error('graphql-ws server not found: its message bound (P149) cannot be set');
    wss.options.maxPayload = WS_MAX_PAYLOAD_BEFORE_KEY;
  }
}
