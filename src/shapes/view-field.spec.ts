import 'reflect-metadata';
import { Int } from '@nestjs/graphql';
import { getFieldsAndDecoratorForType } from '@nestjs/graphql/dist/schema-builder/utils/get-fields-and-decorator.util';
import { TypeMetadataStorage } from '@nestjs/graphql/dist/schema-builder/storages/type-metadata.storage';
import { INSTANT, NULLABLE_STRING, ViewField, ViewType } from './view-field';

@ViewType('Sample', 'A sample answer.')
class SampleView {
  @ViewField('Always there.') name: string;
  @ViewField('May be null.', NULLABLE_STRING) note: string | null;
  @ViewField('When.', { ...INSTANT, nullable: true }) at: Date | null;
  @ViewField('How many.', { type: () => Int, openapi: { type: 'integer' } }) count: number;
}

// @nestjs/swagger's metadata keys (its DECORATORS constants are not exported from the package root).
const openapi = (key: string) => Reflect.getMetadata('swagger/apiModelProperties', SampleView.prototype, key);
const schema = () => (Reflect.getOwnMetadata('swagger/apiSchema', SampleView) as { description?: string }[])[0];
const graphql = (key: string) =>
  getFieldsAndDecoratorForType(SampleView).fields.find((f) => f.name === key) as
    { options: { description?: string; nullable?: unknown }; typeFn: () => unknown } | undefined;

describe('ViewField: one description and one nullability for the GraphQL field and the OpenAPI property (P115)', () => {
  it('writes the description into both', () => {
    for (const [key, description] of [
      ['name', 'Always there.'],
      ['note', 'May be null.'],
      ['count', 'How many.'],
    ]) {
      expect([graphql(key)?.options.description, openapi(key).description]).toEqual([description, description]);
    }
  });

  it('makes a nullable field nullable in both, with the type each contract needs', () => {
    expect(graphql('note')?.options.nullable).toBe(true);
    expect(openapi('note')).toMatchObject({ type: String, nullable: true });
    expect(graphql('name')?.options.nullable).toBeFalsy();
    expect(openapi('name').nullable).toBeUndefined();
    expect(graphql('at')?.typeFn()).toBe(Date);
    expect(openapi('at')).toMatchObject({ type: String, format: 'date-time', nullable: true });
    expect(graphql('count')?.typeFn()).toBe(Int);
    expect(openapi('count').type).toBe('integer');
  });

  it('names the GraphQL type and describes the class once for both', () => {
    const type = TypeMetadataStorage.getObjectTypeMetadataByTarget(SampleView);
    expect([type?.name, type?.description, schema().description]).toEqual(['Sample', 'A sample answer.', 'A sample answer.']);
  });
});
