import { applyDecorators } from '@nestjs/common';
import { NestFastifyApplication, RouteSchema } from '@nestjs/platform-fastify';
import { ApiOkResponse, ApiResponseOptions } from '@nestjs/swagger';
import { piecesAsBytes } from './answer-bytes';
import { AnswerJson, answerJson, arrayPart, viewJson, viewPart } from './answer-json';
import { View } from './view-value';

/**
 * What a route declares as its 200 answer's schema to fastify: not JSON Schema but the answer's
 * compiled writer (P353). Being a class instance, fastify leaves it as it is until it asks the
 * serializer compiler registered below for the route's serializer.
 */
class WrittenAnswer {
  constructor(readonly write: AnswerJson<unknown>) {}
}

/**
 * The route's 200 answer: its type in the OpenAPI document and its compiled writer, declared in
 * one place so the two cannot part. A view class (or a list of one) is written by the writer built
 * from its ViewFields; an answer of another class names its writer (`write`).
 *
 * The writer runs inside fastify's own reply, as a response schema's serializer does. Only the 200
 * answer: an error is written by the exception filter as before, and what a handler sends after its
 * request's deadline is kept as the object it is (P123). Not a Nest interceptor: one puts an rxjs
 * chain and two AsyncResource bindings on every request (P343).
 */
export function OkAnswer(
  type: View | [View],
  options: { write?: AnswerJson<never>; headers?: ApiResponseOptions['headers'] } = {},
): MethodDecorator {
  const { write, headers } = options;
  const writer = write ?? (Array.isArray(type) ? answerJson(arrayPart(viewPart(type[0]))) : viewJson(type));
  return applyDecorators(
    ApiOkResponse({ type, ...(headers ? { headers } : {}) }),
    RouteSchema({ response: { 200: new WrittenAnswer(writer as AnswerJson<unknown>) } }),
  );
}

interface SerializerHost {
  setSerializerCompiler(
    compile: (route: { schema: unknown; method: string; url: string }) => (payload: unknown) => string | Buffer,
  ): unknown;
}

/**
 * From this many characters an answer goes to the socket as its UTF-8 bytes, not as text (P369).
 * Node's response puts its head in front of a text body by concatenation, and writing that copies
 * the whole answer again into one run (and into fresh pages, for a large one) before encoding it
 * once more; bytes are written beside the head as they are. A small answer's copy costs less than
 * the bytes' own allocation.
 */
const ANSWER_BYTES_FROM = 16 * 1024;

/**
 * The answer's writer as fastify's serializer: a large answer as bytes, made from its pieces
 * without joining them into one text first when it is written in pieces (P372).
 */
function payloadWriter(write: AnswerJson<unknown>): (payload: unknown) => string | Buffer {
  const pieces = write.pieces;
  if (pieces === undefined)
    return (payload) => {
      const text = write(payload);
      return text.length < ANSWER_BYTES_FROM ? text : Buffer.from(text, 'utf8');
    };
  return (payload) => {
    const out: string[] = [];
    if (!pieces(payload, out)) return 'null';
    let length = 0;
    for (const piece of out) length += piece.length;
    return length < ANSWER_BYTES_FROM ? out.join('') : piecesAsBytes(out);
  };
}

/**
 * fastify's serializer compiler, before any route is added (app.setup.ts): a declared answer's
 * writer. No route declares a JSON Schema for an answer; one that did would stop the service at
 * start-up here rather than be written by a serializer nobody chose.
 */
export function registerAnswerWriters(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance() as unknown as SerializerHost;
  fastify.setSerializerCompiler(({ schema, method, url }) => {
    if (schema instanceof WrittenAnswer) return payloadWriter(schema.write);
    throw new Error(`${method} ${url}: a response schema that is not an OkAnswer writer`);
  });
}
