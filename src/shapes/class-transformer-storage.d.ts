// class-transformer keeps its @Type registry in a module it does not re-export from its index;
// its types ship separately under types/. dto-json-schema.ts reads that registry.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
