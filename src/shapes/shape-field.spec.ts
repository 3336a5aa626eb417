import 'reflect-metadata';
import { InputType } from '@nestjs/graphql';
import { getFieldsAndDecoratorForType } from '@nestjs/graphql/dist/schema-builder/utils/get-fields-and-decorator.util';
import { validateSync } from 'class-validator';
import { ShapeField } from './shape-field';

@InputType({ isAbstract: true })
class Sample {
  @ShapeField('Always there.')
  required: string;

  @ShapeField('May be left out.', { type: () => String, optional: true, openapi: { example: 'x' } })
  optional?: string | null;
}

// @nestjs/swagger's metadata key of @ApiProperty (DECORATORS.API_MODEL_PROPERTIES; its constants are not exported).
const openapi = (key: string) => Reflect.getMetadata('swagger/apiModelProperties', Sample.prototype, key);
const graphql = (key: string) =>
  getFieldsAndDecoratorForType(Sample).fields.find((f) => f.name === key)?.options as
    { description?: string; nullable?: unknown } | undefined;

describe('ShapeField: one description and one optionality for the GraphQL field and the OpenAPI property (P112)', () => {
  it('writes the description into both', () => {
    expect([graphql('required')?.description, openapi('required').description]).toEqual(['Always there.', 'Always there.']);
    expect([graphql('optional')?.description, openapi('optional').description]).toEqual(['May be left out.', 'May be left out.']);
  });

  it('makes an optional field nullable in GraphQL, optional and nullable in OpenAPI, and skipped by the validators', () => {
    expect(graphql('optional')?.nullable).toBe(true);
    expect(openapi('optional')).toMatchObject({ required: false, nullable: true, example: 'x' });
    expect(graphql('required')?.nullable).toBeFalsy();
    expect(openapi('required').required).not.toBe(false);
    const absent = Object.assign(new Sample(), { required: 'r' });
    const nulled = Object.assign(new Sample(), { required: 'r', optional: null });
    expect([validateSync(absent), validateSync(nulled)]).toEqual([[], []]);
  });
});
