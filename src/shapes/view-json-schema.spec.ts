import 'reflect-metadata';
import { Int } from '@nestjs/graphql';
import { INSTANT, NULLABLE_STRING, ViewField, ViewType, enumView } from './view-field';
import { viewJsonSchema } from './view-json-schema';

enum Light {
  ON = 'ON',
  OFF = 'OFF',
}

@ViewType('JsonPart', 'A part.')
class PartView {
  @ViewField('The light.', enumView(Light, 'Light')) light: Light;
  @ViewField('A flag.') ok: boolean;
}

@ViewType('JsonWhole', 'A whole.')
class WholeView {
  @ViewField('A name.') name: string;
  @ViewField('A note.', NULLABLE_STRING) note: string | null;
  @ViewField('When.', { ...INSTANT, nullable: true }) at: Date | null;
  @ViewField('How many.', { type: () => Int, openapi: { type: 'integer' } }) count: number;
  @ViewField('The parts.', { type: () => [PartView], openapi: { type: [PartView] } }) parts: PartView[];
  @ViewField('The main part.', { type: () => PartView, nullable: true, openapi: { type: PartView } }) main: PartView | null;
}

class ExtendedView extends WholeView {
  @ViewField('Added.') extra: string;
}

describe('viewJsonSchema: a view class read as the JSON Schema of its JSON (P115)', () => {
  const required = (view: unknown) => (view === WholeView ? ['name', 'parts'] : []);

  it('reads types, enums, instants, nullability and nested views off the ViewFields, requiring what it is told', () => {
    const part = { type: 'object', properties: { light: { type: 'string', enum: ['ON', 'OFF'] }, ok: { type: 'boolean' } } };
    expect(viewJsonSchema(WholeView, required)).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string' },
        note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        at: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
        count: { type: 'integer' },
        parts: { type: 'array', items: part },
        main: { anyOf: [part, { type: 'null' }] },
      },
      required: ['name', 'parts'],
    });
  });

  it("lists a subclass's inherited properties first", () => {
    expect(Object.keys(viewJsonSchema(ExtendedView, () => []).properties as object)).toEqual([
      'name',
      'note',
      'at',
      'count',
      'parts',
      'main',
      'extra',
    ]);
  });
});
