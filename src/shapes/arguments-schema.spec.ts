import 'reflect-metadata';
import { IsEnum, IsIn, IsInt, Max, Min } from 'class-validator';
import { ArgumentField, argumentsSchema } from './arguments-schema';
import { dtoJsonSchema } from './dto-json-schema';
import { IsId } from './health-key.dto';
import { IsIsoDateTime } from './iso-date-time';

enum Colour {
  RED = 'RED',
  BLUE = 'BLUE',
}

class Base {
  @ArgumentField('Which one.')
  @IsId()
  name: string;
}

class Sample extends Base {
  @ArgumentField(undefined, { optional: true })
  @IsIn(['a', 'b'])
  pick?: string;

  @ArgumentField('A colour.')
  @IsEnum(Colour)
  colour: Colour;

  @ArgumentField('Seconds.', { optional: true })
  @Max(60)
  @Min(1)
  @IsInt()
  seconds?: number;

  @ArgumentField('When.', { optional: true })
  @IsIsoDateTime()
  at?: string;
}

describe('argumentsSchema: a tool argument class read as the JSON Schema an LLM reads (P115)', () => {
  const schema = argumentsSchema(Sample);

  it('writes inherited properties first, each keyword in one order, descriptions last', () => {
    expect(JSON.stringify(schema)).toBe(
      JSON.stringify({
        type: 'object',
        properties: {
          name: { type: 'string', pattern: '^[A-Za-z0-9._:@/-]{1,256}$', description: 'Which one.' },
          pick: { type: 'string', enum: ['a', 'b'] },
          colour: { type: 'string', enum: ['RED', 'BLUE'], description: 'A colour.' },
          seconds: { type: 'integer', minimum: 1, maximum: 60, description: 'Seconds.' },
          at: { type: 'string', format: 'date-time', description: 'When.' },
        },
        required: ['name', 'colour'],
        additionalProperties: false,
      }),
    );
  });

  it('leaves an optional argument out rather than making it nullable, unlike the REST body reading', () => {
    const properties = schema.properties as Record<string, { type?: unknown }>;
    expect(properties.seconds.type).toBe('integer');
    class Body {
      @ArgumentField('Seconds.', { optional: true })
      @IsInt()
      seconds?: number;
    }
    expect(dtoJsonSchema(Body).schema.properties).toEqual({ seconds: { type: ['integer', 'null'] } });
  });

  it('reads an instant only where the value stays JSON: a compiled REST body refuses it (its handler expects a Date)', () => {
    expect(() => dtoJsonSchema(Sample)).toThrow(/Sample\.at uses @isDate/);
  });
});
